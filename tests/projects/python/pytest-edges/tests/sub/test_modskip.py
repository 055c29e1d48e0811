import pytest
pytest.importorskip("nonexistent_xyz")
