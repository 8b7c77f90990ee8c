"""``python -m corr.clock.mypyc_build``: compile the calculator's hot modules with mypyc, in place.

Run by ``make venv`` (with ``CORR_PURE_PYTHON=1``, so that nothing compiled is loaded while it is
rebuilt). A build that fails (no C compiler, a mypy error) leaves no extension behind: the pure
sources are then the calculator, and the message says so. See :mod:`corr.clock.build` for how the
build in use is chosen.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from .build import COMPILED, HERE, MYPYC, PURE, ROOT, SHARED, STAMP, _extension, source, sources_hash

# setuptools' build_ext in place: the modules in one group, named so that its shared library is
# corr.clock's own module (build.SHARED). Only the compiled modules are type-checked: the modules they
# import are read for their types, their own errors not reported (they run as Python).
_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify

group, *files = sys.argv[1:]
setup(name="corr-clock-compiled", script_args=["build_ext", "--inplace"],
      ext_modules=mypycify(["--follow-imports=silent", *files], opt_level="3", group_name=group))
"""
GROUP = f"{__package__}.{SHARED.removesuffix('__mypyc')}"


def clean() -> None:
    """Remove the extensions and the stamp (the sources are used until the next build)."""
    STAMP.unlink(missing_ok=True)
    for name in COMPILED:
        while (path := _extension(name)) is not None:
            path.unlink()
    for folder in (HERE, ROOT):  # ROOT: where mypyc's command line puts it
        for shared in folder.glob("*__mypyc*.so"):
            shared.unlink()


def build() -> bool:
    """Compile :data:`COMPILED` in place with mypyc; False (and the pure sources used) when it fails."""
    clean()
    files = [str(source(name).relative_to(ROOT)) for name in COMPILED]
    done = subprocess.run([sys.executable, "-c", _SETUP, GROUP, *files], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0 or not all(_extension(name) for name in (*COMPILED, SHARED)):
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        clean()
        return False
    STAMP.write_text(sources_hash() + "\n")
    return True


def main(argv: list[str]) -> int:
    """``python -m corr.clock.mypyc_build [--clean] [--record FILE]``: compile (or remove the build).

    ``--record FILE`` writes the build now in use, ``mypyc`` or ``pure``, for ``make test`` to check.
    """
    parser = argparse.ArgumentParser(prog="python -m corr.clock.mypyc_build", description=main.__doc__)
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument("--record", help="write the build in use (mypyc or pure) to this file")
    args = parser.parse_args(argv)
    if args.clean:
        clean()
        print("corr.clock: compiled modules removed: the pure-Python modules are used")
        outcome = PURE
    elif build():
        print(f"corr.clock: {len(COMPILED)} modules compiled by mypyc ({', '.join(COMPILED)})")
        outcome = MYPYC
    else:
        print("corr.clock: the mypyc build failed (see above): the pure-Python modules are used")
        outcome = PURE
    if args.record:
        with open(args.record, "w") as out:
            out.write(outcome + "\n")
    return 0  # a failed build is not a failure: the sources compute the same


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
