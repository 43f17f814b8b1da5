"""Solfec-1.0's mesh file, as its TETRAHEDRALIZE writes it to path and reads it back when the
file is there (Solfec-1.0 lng.c TETRAHEDRALIZE, msh.c MESH_Write/MESH_Read/MESH_Pack, cmp.c
compress, pck.c behaviour; written from those, no code taken):

  file      HDF5 (Solfec's usual build): the root's attribute 'data size' (n) and the 1-D
            int dataset 'compressed mesh data' (n ints); or XDR (a build without HDF5): n,
            then the n ints, big endian
  n ints    a FastLZ block (level 1 or 2) padded to whole ints, then 4 ints: the
            algorithm, the number of doubles, the number of ints and the padding remainder;
            the block inflates to the doubles, then the ints (native byte order: x86's)
  ints      nodes, bulk elements, surface elements; then per element: type (its node
            count: 4, 5, 6, 8), neighbours, volume id, its nodes, its neighbours' indices,
            a material flag (with a packed label when 1), its face count and per face:
            type (3 or 4), its nodes, its index in the element, its surface id
  doubles   the current nodes (3 each), the referential nodes, per face its normal (3)

read(path) -> (nodes, elements, surfids) for shapes.MESH, or None when the file is not
one (neither HDF5 nor a whole XDR record)."""

import struct as _struct

_HDF5_SIGNATURE = b'\x89HDF\r\n\x1a\n'


def _inflate(src, size):
    """FastLZ's block format (level 1 or 2, the first byte's top 3 bits: 0 or 1) inflated to
    size bytes. Instructions: a literal run (control < 32: control + 1 bytes follow), or a
    match (3 bits of length, 13 of distance; level 1: length 7 takes one more byte; level 2:
    length 7 takes bytes while they are 255, and distance 31·256 + 255 takes two more bytes,
    added to 8191) copying length + 2 bytes from distance + 1 back, byte by byte (overlaps
    repeat). A malformed block is a ValueError."""
    if not src:
        raise ValueError('empty compressed block')
    level = (src[0] >> 5) + 1
    if level not in (1, 2):
        raise ValueError('unknown FastLZ level %d' % level)
    out = bytearray()
    ip, n = 1, len(src)
    ctrl = src[0] & 31
    while True:
        if ctrl >= 32:
            length = (ctrl >> 5) - 1
            ofs = (ctrl & 31) << 8
            if length == 6:
                if level == 1:
                    length += src[ip]
                    ip += 1
                else:
                    while True:
                        code = src[ip]
                        ip += 1
                        length += code
                        if code != 255:
                            break
            code = src[ip]
            ip += 1
            ref = len(out) - ofs - code - 1
            if level == 2 and code == 255 and ofs == (31 << 8):
                ref = len(out) - ((src[ip] << 8) + src[ip + 1]) - 8191 - 1
                ip += 2
            if ref < 0:
                raise ValueError('a match reaches before the start of the block')
            for _ in range(length + 3):
                out.append(out[ref])
                ref += 1
        else:
            out += src[ip:ip + ctrl + 1]
            ip += ctrl + 1
        if len(out) >= size or ip >= n:
            break
        ctrl = src[ip]
        ip += 1
    if len(out) < size:
        raise ValueError('the block inflates to %d bytes, %d expected' % (len(out), size))
    return bytes(out[:size])


def _records(words):
    """Solfec's compressed array of ints (compress) -> (doubles, ints)."""
    if len(words) < 4:
        raise ValueError('%d ints: fewer than the 4 of the trailer' % len(words))
    nd, ni, rem = words[-3], words[-2], words[-1]
    if nd < 0 or ni < 0 or not 0 <= rem < 4:
        raise ValueError('trailer (doubles %d, ints %d, remainder %d) is not Solfec\'s' % (nd, ni, rem))
    raw = _struct.pack('<%di' % (len(words) - 4), *words[:-4])
    if rem:
        raw = raw[:len(raw) - (4 - rem)]
    size = 8 * nd + 4 * ni
    data = _inflate(raw, size) if size >= 16 else raw[:size]
    return _struct.unpack_from('<%dd' % nd, data), _struct.unpack_from('<%di' % ni, data, 8 * nd)


def _unpack(d, i):
    """MESH_Pack's doubles and ints -> MESH's (nodes, elements, surfids): the current nodes,
    each element as [type, nodes..., volume id], each face as [type, nodes..., surface id]."""
    ip = [0]

    def take(k):
        if ip[0] + k > len(i):
            raise ValueError('the ints end early')
        ip[0] += k
        return i[ip[0] - k:ip[0]]

    nn, nb, ns = take(3)
    if nn <= 0 or nb < 0 or ns < 0 or len(d) < 6 * nn:
        raise ValueError('%d nodes, %d elements, %d doubles' % (nn, nb, len(d)))
    nodes = [list(d[3 * k:3 * k + 3]) for k in range(nn)]
    elements, faces = [], []
    for _ in range(nb + ns):
        kind, neighs, vol = take(3)
        if kind not in (4, 5, 6, 8) or neighs < 0:
            raise ValueError('an element of type %d with %d neighbours' % (kind, neighs))
        enodes = list(take(kind))
        take(neighs)
        if take(1)[0]:  # a material's label: its length, then that many ints
            take(take(1)[0])
        elements += [kind] + enodes + [vol]
        for _ in range(take(1)[0]):
            ftype = take(1)[0]
            if ftype not in (3, 4):
                raise ValueError('a face of type %d' % ftype)
            fnodes = list(take(ftype))
            _index, surf = take(2)
            faces += [ftype] + fnodes + [surf]
    return nodes, elements, [0] + faces


def _words(path):
    """The file's array of ints (HDF5 or XDR), or None when it is neither."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] == _HDF5_SIGNATURE:
        import _moreau as _m
        raw = _m.solfec_mesh_ints(path)
        return _struct.unpack('=%di' % (len(raw) // 4), raw)
    if len(data) >= 4:
        n = _struct.unpack_from('>i', data)[0]
        if n > 4 and len(data) == 4 + 4 * n:
            return _struct.unpack_from('>%di' % n, data, 4)
    return None


def read(path):
    """Solfec-1.0's mesh file at path -> (nodes, elements, surfids), or None when the file is
    not one; a file that starts as one and is broken is a ValueError naming what is wrong."""
    words = _words(path)
    if words is None:
        return None
    return _unpack(*_records(list(words)))
