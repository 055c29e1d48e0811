R"GLPY("
"""greenlight's pytest plugin: the module `-p greenlight_pytest` names. PYTEST_DONT_REWRITE

pytest parses and assertion-rewrites each module named with -p on every run, so this one is
only this: the hooks are in _greenlight_pytest (pytest_plugin.py), which it leaves alone.
"""
from _greenlight_pytest import *  # noqa: F401,F403  (the pytest_* hooks)
")GLPY"
