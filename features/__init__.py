"""Pyramide's conformance kit: the rules of the documents as Gherkin scenarios that drive the HTTP
API, so that the same suite judges Pyramide or any other implementation of the API.

    pytest features                                   # in-process, against Pyramide's own app
    pytest features --base-url http://host:port       # against any live server
    pyramide-conformance --base-url http://host:port  # the same, with a summary
"""
