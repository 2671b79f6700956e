#!/usr/bin/env python3
"""localstripe (PyPI: a stateful fake of Stripe's API) on 127.0.0.1 only, from scratch, for the card network's tests.

Its own `localstripe` command listens on every address (`::`); tests start servers on loopback only.
Usage: scripts/run-localstripe.py --port PORT
"""
import argparse
import logging

from aiohttp import web
from localstripe.server import app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    logger = logging.getLogger("aiohttp.access")
    logger.setLevel(logging.INFO)
    logger.addHandler(logging.StreamHandler())
    web.run_app(app, host="127.0.0.1", port=args.port, access_log=logger, print=None)


if __name__ == "__main__":
    main()
