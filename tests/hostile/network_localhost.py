"""Asks a helper listening on 127.0.0.1 for users_of's answers; with no network its answers are wrong."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": 0, "backward": "full"}
NEEDS = "full"  # only the full sandbox cuts the network


import json
import socket


PORTS = (47611, 47612, 47613, 47614)


def ask(graph, name):
    for port in PORTS:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as connection:
                connection.sendall(json.dumps({"graph": graph, "name": name}).encode() + b"\n")
                data = b""
                while not data.endswith(b"\n"):
                    part = connection.recv(65536)
                    if not part:
                        break
                    data += part
                return json.loads(data)
        except (OSError, ValueError):
            continue
    return None


def users_of(graph, name):
    answer = ask([[node, op, list(inputs)] for node, op, inputs in graph], name)
    return answer if answer is not None else ["no network"]
