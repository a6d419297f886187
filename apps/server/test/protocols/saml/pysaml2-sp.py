"""A service provider built with pysaml2 (the library behind SATOSA), as its documentation configures one.

Reads one JSON command on stdin and prints one JSON answer:
  {"step": "metadata"}                       -> {"metadata": "<EntityDescriptor ...>"}
  {"step": "request"}                        -> {"url": "<IdP SSO URL with the signed-free AuthnRequest>", "id": "..."}
  {"step": "response", "response": "...", "requestId": "..."} -> {"attributes": {...}} or {"error": "..."}
Every command also carries the SP's settings: entityId, acsUrl, keyFile, certFile, idpMetadata, wantResponseSigned.
"""
import json
import sys

from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT
from saml2.client import Saml2Client
from saml2.config import SPConfig
from saml2.metadata import create_metadata_string


def client(command):
    settings = {
        "entityid": command["entityId"],
        "service": {
            "sp": {
                "endpoints": {"assertion_consumer_service": [(command["acsUrl"], BINDING_HTTP_POST)]},
                "want_response_signed": command["wantResponseSigned"],
                "want_assertions_signed": True,
                "authn_requests_signed": False,
                "allow_unsolicited": False,
            }
        },
        "key_file": command["keyFile"],
        "cert_file": command["certFile"],
        "encryption_keypairs": [{"key_file": command["keyFile"], "cert_file": command["certFile"]}],
        "xmlsec_binary": "/usr/bin/xmlsec1",
    }
    if command.get("idpMetadata"):
        settings["metadata"] = {"inline": [command["idpMetadata"]]}
    config = SPConfig()
    config.load(settings)
    return config, Saml2Client(config)


def main():
    command = json.load(sys.stdin)
    config, sp = client(command)
    if command["step"] == "metadata":
        print(json.dumps({"metadata": create_metadata_string(None, config, valid=None).decode("utf-8")}))
    elif command["step"] == "request":
        request_id, info = sp.prepare_for_authenticate(binding=BINDING_HTTP_REDIRECT)
        print(json.dumps({"url": dict(info["headers"])["Location"], "id": request_id}))
    else:
        try:
            answer = sp.parse_authn_request_response(
                command["response"], BINDING_HTTP_POST, outstanding={command["requestId"]: "/"}
            )
            if answer is None:
                raise ValueError("no answer")
            print(json.dumps({"attributes": answer.get_identity()}))
        except Exception as error:  # noqa: BLE001 - the test wants pysaml2's reason, whatever it is
            print(json.dumps({"error": f"{type(error).__name__}: {error}"}))


main()
