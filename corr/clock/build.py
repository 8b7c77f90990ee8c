"""Which build of the calculator runs: the modules compiled by mypyc, or their pure-Python sources.

The hot modules of the calculator (:data:`COMPILED`) are plain, typed Python that mypyc can
compile to C extensions (``make venv`` does it: ``python -m corr.clock.mypyc_build``). The extensions
sit beside the sources (``charging.cpython-311-x86_64-linux-gnu.so`` next to ``charging.py``) and
Python imports an extension before a source of the same name. Both builds give the same results;
the suite runs the calculator's tests on each.

:func:`select` runs when :mod:`corr.clock` is imported, before any of these modules, and keeps the
pure sources when

- ``CORR_PURE_PYTHON=1`` asks for them (the suite's second run, or a comparison in the bench);
- no build was made, or it failed (no compiler, no mypy): the sources are all there is;
- a source changed after the build (its hash differs from the one written when it was built):
  a stale extension would compute what the old source did. A warning says so.

It is all or nothing: the compiled modules call each other directly, so a mix is never used.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path

PACKAGE = "corr.clock"
COMPILED = ("errors", "calendar", "verdicts", "personal", "events", "instants", "charging", "control", "flagtime",
            "account", "assembly", "systems.base", "systems.fischer", "systems.delay", "systems.per_move",
            "systems.byoyomi", "systems.canadian", "systems.periods", "live.lag", "live.clock")
"""The modules compiled, in :data:`PACKAGE` (dotted below it): the events, charging, the 50.4 control, the
assembly of a game's stored rows (run on every clock read and every move), the time-control systems, and
the live engine (run on every press, issue 27). (Not the ruleset, nor the live events: their constructors
take what a caller typed and check it, which compiled typed fields would refuse before the check.)"""

SHARED = "_compiled__mypyc"
"""The extension holding the compiled modules' code (theirs only load it): inside the package, so that a
copy of ``corr/`` carries it (mypyc's default is a top-level module beside the repository's root)."""

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STAMP = Path(os.environ.get("CORR_BUILD_STAMP") or HERE / "compiled.sha256")
"""Written after a successful build: the hash of the sources it compiled (gitignored, as the extensions are).
``CORR_BUILD_STAMP`` names another file (the test of a stale build, which must not touch the real one)."""

PURE_SWITCH = "CORR_PURE_PYTHON"

MYPYC = "mypyc"
PURE = "pure"


def sources_hash() -> str:
    """The hash of the compiled modules' sources, in order."""
    digest = hashlib.sha256()
    for name in COMPILED:
        digest.update(source(name).read_bytes())
    return digest.hexdigest()


def source(name: str) -> Path:
    """The ``.py`` file of compiled module ``name`` (dotted below :data:`PACKAGE`)."""
    return HERE.joinpath(*name.split(".")).with_suffix(".py")


def _extension(name: str) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = HERE.joinpath(*name.split(".")).with_name(name.rpartition(".")[2] + suffix)
        if path.exists():
            return path
    return None


class _Sources:
    """A meta path finder that gives the ``.py`` source of the compiled modules, never their extension."""

    def find_spec(self, fullname, path=None, target=None):
        name = fullname.removeprefix(PACKAGE + ".")
        if name == fullname or name not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, source(name))


def select() -> str:
    """Choose the build (see the module's docstring) before any compiled module is imported: ``mypyc`` or ``pure``."""
    built = all(_extension(name) is not None for name in (*COMPILED, SHARED))
    reason = None
    if os.environ.get(PURE_SWITCH, "") not in ("", "0"):
        reason = ""  # asked for: nothing to say
    elif not built:
        reason = ""  # no build (or a failed one): the sources are the calculator
    elif not STAMP.exists() or STAMP.read_text().strip() != sources_hash():
        reason = ("corr.clock: the compiled calculator is older than its sources; the pure-Python modules"
                  " are used (run `make venv` to compile again)")
    if reason is None:
        return MYPYC
    if reason:
        warnings.warn(reason, RuntimeWarning, stacklevel=3)
    if not any(isinstance(finder, _Sources) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Sources())
    return PURE


def in_use() -> str:
    """The build the imported modules are (``mypyc`` when every compiled module came from its extension)."""
    # Only those imported so far (the live engine's are imported when a live clock is first asked for).
    modules = [m for name in COMPILED if (m := sys.modules.get(f"{PACKAGE}.{name}")) is not None]
    files = [getattr(m, "__file__", "") or "" for m in modules]
    if all(f.endswith(".py") for f in files):
        return PURE
    if all(not f.endswith(".py") for f in files):
        return MYPYC
    return "mixed"  # pragma: no cover - select() never allows it
