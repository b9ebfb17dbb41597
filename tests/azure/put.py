"""Puts a file into Azurite as a blob with Microsoft's own SDK (azure-storage-blob),
creating the container when needed.

usage: put.py ENDPOINT CONTAINER BLOB FILE   (ENDPOINT: http://127.0.0.1:PORT)
"""
import sys

from azure.core.exceptions import ResourceExistsError
from azure.storage.blob import BlobServiceClient

# Azurite's well-known development account (documented by Microsoft; not a secret).
ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

endpoint, container, blob, path = sys.argv[1:5]
service = BlobServiceClient.from_connection_string(
    f"DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={KEY};"
    f"BlobEndpoint={endpoint}/{ACCOUNT};"
)
client = service.get_container_client(container)
try:
    client.create_container()
except ResourceExistsError:
    pass
with open(path, "rb") as f:
    client.upload_blob(blob, f, overwrite=True)
