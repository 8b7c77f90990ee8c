"""Test-only helpers that other processes load by name (the e-mail backend of a real worker)."""
