# Pattern: a package `__init__.py` re-exports names from private submodules
# (with one renamed), and callers use `pkg.name`. Modelled on httpx/requests,
# whose `__init__` re-exports `get`, `Client`, `Response` from `_api`/`_client`.
import httpkit
from httpkit import HTTPResponse

response = httpkit.get("example.test/index").raise_for_status()
client = httpkit.Client("api.test")
other = client.get("/users")
manual = HTTPResponse(204, "none")
print(response.url, other.status, manual.raise_for_status().status)
