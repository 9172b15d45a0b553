#!/usr/bin/env python3
"""h5_chunk_index.py -- damage to the chunk indexes of an HDF5 file of the
1.8 format (version 1 B-trees, which carry no checksum), for the damage
tests.

  h5_chunk_index.py FILE             lists the leaf entries of every chunk
                                     index node: "NODE CHILD" a line
  h5_chunk_index.py FILE NODE CHILD OUT
                                     writes FILE to OUT with the 64 bytes
                                     after that child's chunk address zeroed
                                     (the key that bounds it: a lookup by
                                     coordinate then misses the chunk, and
                                     HDF5 reads it as fill values unless the
                                     reader checks the index first)

A node is found by its signature "TREE" with node type 1 (raw data
chunks) and level 0; its rank is the one for which every child address
lies within the file and every key ends with the zero offset of the
element dimension.  Nodes of freed space (an older copy of an index) are
listed too: damage there must change nothing.
"""
import struct
import sys


def nodes(b):
    """(offset, rank, key_size, children) of each leaf chunk-index node."""
    out, i = [], 0
    while True:
        i = b.find(b"TREE", i)
        if i < 0:
            return out
        kind, level = b[i + 4], b[i + 5]
        n = struct.unpack_from("<H", b, i + 6)[0] if i + 8 <= len(b) else 0
        for rank in (1, 2, 3, 4) if kind == 1 and level == 0 and n > 0 else ():
            ks = 8 + 8 * (rank + 1)
            at = [i + 24 + ks + k * (ks + 8) for k in range(n)]
            if at[-1] + 8 > len(b):
                break
            kids = [struct.unpack_from("<Q", b, a)[0] for a in at]
            if all(0 < a < len(b) for a in kids) and all(
                    b[a - 8:a] == b"\0" * 8 for a in at):
                out.append((i, rank, ks, at))
                break
        i += 4


def main():
    b = bytearray(open(sys.argv[1], "rb").read())
    found = nodes(b)
    if len(sys.argv) == 2:
        for n, (_, _, _, at) in enumerate(found):
            for k in range(len(at)):
                print(n, k)
        return
    at = found[int(sys.argv[2])][3][int(sys.argv[3])] + 8
    b[at:at + 64] = b"\0" * 64
    open(sys.argv[4], "wb").write(b)


main()
