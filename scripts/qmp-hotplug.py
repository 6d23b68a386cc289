#!/usr/bin/env python3
"""Hot-add memory to a running guest once it asks for it.

Usage: qmp-hotplug.py LOG SOCKET MEMDEV NODE
Waits until the guest's console LOG shows "RIG hotplug ready", then adds a
pc-dimm backed by MEMDEV on NUMA node NODE through QEMU's QMP SOCKET, and
appends what QEMU answered to LOG.qmp. Gives up after 600 s.
"""
import json
import os
import socket
import sys
import time


def main():
    log, sock_path, memdev, node = sys.argv[1:5]
    deadline = time.time() + 600
    while time.time() < deadline:
        try:
            with open(log, errors="replace") as f:
                if "RIG hotplug ready" in f.read():
                    break
        except FileNotFoundError:
            pass
        time.sleep(0.5)
    else:
        return 1
    s = socket.socket(socket.AF_UNIX)
    s.connect(sock_path)
    f = s.makefile("rw")
    out = [f.readline().strip()]

    def cmd(name, args=None):
        f.write(json.dumps({"execute": name, **({"arguments": args} if args else {})}) + "\n")
        f.flush()
        while True:
            line = f.readline().strip()
            out.append(line)
            if '"return"' in line or '"error"' in line or not line:
                return line

    cmd("qmp_capabilities")
    cmd("device_add", {"driver": "pc-dimm", "id": "dimm-" + memdev, "memdev": memdev,
                       "node": int(node)})
    with open(log + ".qmp", "a") as o:
        o.write("\n".join(out) + "\n")
    return 0


sys.exit(main())
