from ._api import get
from ._client import Client
from ._models import Response as HTTPResponse

__all__ = ["get", "Client", "HTTPResponse"]
