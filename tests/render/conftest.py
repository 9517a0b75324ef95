import pytest

from .helpers import headless


@pytest.fixture(autouse=True)
def _headless():
    headless()
    yield
