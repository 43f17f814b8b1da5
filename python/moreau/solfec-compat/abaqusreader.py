"""abaqusreader: the parts, instances and materials of an Abaqus .inp file as moreau MESH and
BULK_MATERIAL objects, for decks written for Solfec-1.0's scripts/abaqusreader.

    from abaqusreader import AbaqusInput
    model = AbaqusInput('array.inp', solfec)
    for inst in model.assembly.instances.values():
        BODY(solfec, 'FINITE_ELEMENT', inst.mesh, inst.material, inst.name)

moreau's own reader, written from what the decks need (Solfec-1.0's interface: AbaqusInput(path,
solfec=None, gid=0, volid=1, verbose=0, convert=True) and the members its decks read). The subset
of the Abaqus input syntax it reads (Abaqus Analysis User's Manual, "Input syntax rules"):

  *Part, name=  ... *End Part     with *Node, *Element (type C3D4, C3D6, C3D8, C3D10, C3D15,
                                  C3D20 and their R/H/I/M/T/... variants; the second-order ones
                                  keep their corner nodes, which come first), *Nset (generate
                                  too; `internal` sets are skipped), *Elset (kept, unused) and
                                  *Solid Section, material=
  *Assembly ... *End Assembly     with *Instance, name=, part= ... *End Instance, whose data
                                  lines are a translation (3 numbers) and a rotation (point a,
                                  point b, angle in degrees about the axis a->b, applied after
                                  the translation)
  *Material, name=                with *Density and *Elastic (Young's modulus, Poisson's ratio)
  *Include, input=                a file relative to the including one
Other keywords and their data lines are skipped. Lines starting with ** are comments.

As Solfec's reader: names (parts, instances, materials, sets) are upper case, as Abaqus compares
them; a part's node set named SURF<n> gives surface id n to the element faces all of whose corner
nodes are in it (the other faces get gid); every element has volume id volid; an instance's
material is created (KIRCHHOFF, one BULK_MATERIAL per Abaqus material) only when a solfec object
is given. Unlike Solfec's, the solfec numbering of a part's nodes follows the Abaqus node numbers
(the nodes its elements use, ascending), and a part whose solid sections name several materials
is an error (one body, one material) rather than taking the last one.
"""

import os as _os
import re as _re

from moreau import BULK_MATERIAL, MESH, RANK, ROTATE, TRANSLATE
from moreau.shapes import _ELEMENT_FACE_NODES

__all__ = ['AbaqusInput', 'AbaqusError', 'Part', 'Instance', 'Assembly', 'ElasticMaterial']

# corner nodes of an element with this many nodes (second-order elements list their corners first)
_CORNERS = {4: 4, 6: 6, 8: 8, 10: 4, 15: 6, 20: 8}


class AbaqusError(ValueError):
    """A line of the .inp file this reader cannot read; the message names the file and line."""


class _Line:
    """One keyword line (keyword, params) or data line (fields) of the file, with where it is."""
    __slots__ = ('where', 'keyword', 'params', 'fields')

    def __init__(self, where, text):
        self.where = where
        parts = [_strip(p) for p in text.split(',')]
        if parts and parts[-1] == '':
            parts.pop()  # a trailing comma ends a data line: '1.0,' is one field
        if text.startswith('*'):
            self.keyword = ' '.join(parts[0][1:].upper().split())
            self.params = {}
            for p in parts[1:]:
                if p:
                    k, eq, v = p.partition('=')
                    self.params[' '.join(k.upper().split())] = _strip(v).upper() if eq else None
            self.fields = None
        else:
            self.keyword, self.params, self.fields = None, None, parts

    def error(self, msg):
        return AbaqusError('%s: %s' % (self.where, msg))

    def numbers(self, kind, count=None):
        """The data line's fields as numbers of kind (int or float), count of them if given."""
        try:
            vals = [kind(f) for f in self.fields if f != '']
        except ValueError:
            raise self.error('expected %s numbers, got %r' % ('integer' if kind is int else 'real', ','.join(self.fields))) from None
        if count is not None and len(vals) < count:
            raise self.error('expected %d numbers, got %d: %r' % (count, len(vals), ','.join(self.fields)))
        return vals


def _strip(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in '"\'':
        s = s[1:-1]  # a quoted name (Abaqus: needed when it holds a space)
    return s


def _lines(path, depth=0):
    """The non-comment, non-blank lines of the file, *Include files read in place."""
    if depth > 16:
        raise AbaqusError('%s: *Include nested more than 16 deep' % path)
    try:
        fh = open(path, 'r', encoding='latin-1')
    except OSError as e:
        raise OSError(e.errno, 'AbaqusInput: cannot open the .inp file %r: %s' % (path, e.strerror)) from None
    with fh:
        for n, text in enumerate(fh, 1):
            text = text.strip()
            if not text or text.startswith('**'):
                continue
            line = _Line('%s:%d' % (path, n), text)
            if line.keyword == 'INCLUDE':
                inc = line.params.get('INPUT')
                if not inc:
                    raise line.error('*Include has no input= file')
                inc = _re.search(r'input\s*=\s*["\']?([^,"\']+)', text, _re.I).group(1).strip()  # the name as written (case kept)
                yield from _lines(_os.path.join(_os.path.dirname(path), inc), depth + 1)
            else:
                yield line


class _Cards:
    """The lines with one look-ahead: a keyword line and the data lines that follow it."""

    def __init__(self, path):
        self._it = _lines(path)
        self._next = next(self._it, None)

    def peek(self):
        return self._next

    def take(self):
        line, self._next = self._next, next(self._it, None)
        return line

    def data(self):
        """The data lines up to the next keyword line."""
        while self._next is not None and self._next.keyword is None:
            yield self.take()


class ElasticMaterial:
    """*Material: name, density, Ym (Young's modulus), poisson; bulkmat once converted."""

    def __init__(self, name=None):
        self.name = name
        self.density = None
        self.Ym = None
        self.poisson = None
        self.bulkmat = None

    def convert(self, solfec):
        """The BULK_MATERIAL (created once, on the first instance that uses the material)."""
        if self.bulkmat is None:
            for what, val in (('*Density', self.density), ('*Elastic', self.Ym)):
                if val is None:
                    raise AbaqusError('material %s has no %s: the body needs it' % (self.name, what))
            self.bulkmat = BULK_MATERIAL(solfec, model='KIRCHHOFF', label=self.name, young=self.Ym,
                                         poisson=self.poisson, density=self.density)
        return self

    def __repr__(self):
        return 'ElasticMaterial(%s: density %g, young %g, poisson %g)' % (self.name, self.density or 0, self.Ym or 0, self.poisson or 0)


class Part:
    """*Part: abqnodes {id: (x, y, z)}, abqelements {id: (type, node ids...)}, abqnodesets
    {name: [node ids]} (not the internal ones), abqelsets, materialname; once converted, MESH's
    nodes, elements and surfids, nodesets (solfec node numbers), nodemap and elmap (Abaqus id ->
    solfec number)."""

    def __init__(self, name=None):
        self.name = name
        self.materialname = None
        self.abqnodes = {}
        self.abqelements = {}
        self.abqnodesets = {}
        self.abqelsets = {}
        self.nodes = []
        self.elements = []
        self.surfids = []
        self.nodesets = {}
        self.nodemap = {}
        self.elmap = {}
        self._materials = []  # (material name, where) of each *Solid Section

    def convert(self, volid, gid):
        """Fill nodes, elements, surfids, nodesets, nodemap and elmap."""
        if not self.abqelements:
            raise AbaqusError('part %s has no elements' % self.name)
        used = set()
        for eid, el in self.abqelements.items():
            for nid in el[1:1 + _CORNERS[len(el) - 1]]:
                if nid not in self.abqnodes:
                    raise AbaqusError('part %s: element %d uses node %d, which the part does not define' % (self.name, eid, nid))
                used.add(nid)
        self.nodemap = {nid: k for k, nid in enumerate(sorted(used))}
        self.nodes = [x for nid in sorted(used) for x in self.abqnodes[nid]]
        self.elements, self.elmap = [], {}
        for k, eid in enumerate(sorted(self.abqelements)):
            el = self.abqelements[eid]
            n = _CORNERS[len(el) - 1]
            self.elmap[eid] = k
            self.elements += [n] + [self.nodemap[nid] for nid in el[1:1 + n]] + [volid]
        self.nodesets = {name: [self.nodemap[nid] for nid in ids if nid in self.nodemap]
                         for name, ids in self.abqnodesets.items()}
        self.surfids = [gid]
        for name, ids in sorted(self.abqnodesets.items()):
            m = _re.fullmatch(r'SURF(\d+)', name)
            if not m:
                continue
            inset = set(self.nodemap[nid] for nid in ids if nid in self.nodemap)
            pos = 0
            while pos < len(self.elements):  # the faces all of whose corners are in the set
                n = self.elements[pos]
                nodes = self.elements[pos + 1:pos + 1 + n]
                for face in _ELEMENT_FACE_NODES[n]:
                    f = [nodes[a] for a in face]
                    if all(v in inset for v in f):
                        self.surfids += [len(f)] + f + [int(m.group(1))]
                pos += n + 2
        mats = sorted(set(m for m, _ in self._materials))
        if len(mats) > 1:
            raise AbaqusError('part %s: its solid sections name several materials (%s): a body has one' % (self.name, ', '.join(mats)))
        self.materialname = mats[0] if mats else None

    def __repr__(self):
        return 'Part(%s: %d nodes, %d elements)' % (self.name, len(self.abqnodes), len(self.abqelements))


class Instance:
    """*Instance: name, part, translate, point, direction, angle (degrees); once converted, mesh
    (MESH where the instance is) and material (its BULK_MATERIAL, or None without solfec)."""

    def __init__(self, name=None, part=None):
        self.name = name
        self.part = part
        self.translate = (0.0, 0.0, 0.0)
        self.point = (0.0, 0.0, 0.0)
        self.direction = (0.0, 0.0, 0.0)
        self.angle = 0.0
        self.mesh = None
        self.material = None

    def convert(self, bulkmat=None):
        """Build mesh: the part's MESH translated, then rotated (Abaqus' order)."""
        p = self.part
        self.mesh = MESH(p.nodes, p.elements, p.surfids)
        if any(self.translate):
            TRANSLATE(self.mesh, self.translate)
        if any(self.direction) and self.angle:
            ROTATE(self.mesh, self.point, self.direction, self.angle)
        self.material = bulkmat

    def __repr__(self):
        return 'Instance(%s of part %s)' % (self.name, self.part.name if self.part else None)


class Assembly:
    """*Assembly: name and instances {name: Instance}, in the file's order."""

    def __init__(self, name=None):
        self.name = name
        self.instances = {}
        self.elsets = {}


class AbaqusInput:
    """AbaqusInput(path, solfec=None, gid=0, volid=1, verbose=0, convert=True): the .inp file's
    parts, assembly and materials (dicts by upper-case name); with convert, every instance's
    mesh (and, given solfec, its material)."""

    def __init__(self, path, solfec=None, gid=0, volid=1, verbose=0, convert=True):
        if not isinstance(path, str):
            raise TypeError('AbaqusInput: path must be a string, got %r' % (path,))
        for name, v in (('gid', gid), ('volid', volid), ('verbose', verbose)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError('AbaqusInput: %s must be an integer, got %r' % (name, v))
        self.path = path
        self.solfec = solfec
        self.gid, self.volid, self.verbose = gid, volid, verbose
        self.parts = {}
        self.assembly = None
        self.materials = {}
        self.parse()
        if convert:
            self.convert()

    def _say(self, *words):
        if self.verbose > 0 and RANK() == 0 and (self.solfec is None or self.solfec.mode == 'WRITE'):
            print(*words)

    # ---------------------------------------------------------------- reading
    def parse(self):
        """Read the file into parts, assembly and materials."""
        cards = _Cards(self.path)
        while cards.peek() is not None:
            line = cards.take()
            if line.keyword == 'PART':
                self._part(line, cards)
            elif line.keyword == 'ASSEMBLY':
                if self.assembly is not None:
                    raise line.error('a second *Assembly (a model has one)')
                self.assembly = Assembly(line.params.get('NAME'))
                self._assembly(cards)
            elif line.keyword == 'MATERIAL':
                self._material(line, cards)
            elif line.keyword in ('END PART', 'END ASSEMBLY', 'END INSTANCE'):
                raise line.error('*%s without its opening keyword' % line.keyword.title())
            else:
                list(cards.data())  # keywords outside what this reader reads: skipped
        if self.assembly is None:
            raise AbaqusError('%s: no *Assembly: the reader builds bodies from its instances' % self.path)

    def _name(self, line, what):
        name = line.params.get('NAME')
        if not name:
            raise line.error('*%s has no name=' % what)
        return name

    def _part(self, line, cards):
        p = Part(self._name(line, 'Part'))
        if p.name in self.parts:
            raise line.error('a second *Part named %s' % p.name)
        self._say('reading *Part %s' % p.name)
        while True:
            line = cards.take()
            if line is None:
                raise AbaqusError('%s: *Part %s has no *End Part' % (self.path, p.name))
            kw = line.keyword
            if kw == 'END PART':
                break
            if kw == 'NODE':
                for d in cards.data():
                    v = d.numbers(float, 4)
                    p.abqnodes[int(v[0])] = tuple(v[1:4])
            elif kw == 'ELEMENT':
                self._elements(line, cards, p)
            elif kw in ('NSET', 'ELSET'):
                self._set(line, cards, p)
            elif kw == 'SOLID SECTION':
                list(cards.data())
                if line.params.get('MATERIAL'):
                    p._materials.append((line.params['MATERIAL'], line.where))
            elif kw in ('PART', 'ASSEMBLY', 'MATERIAL'):
                raise line.error('*%s inside *Part %s (no *End Part before it)' % (kw.title(), p.name))
            elif kw is None:
                raise line.error('a data line with no keyword before it in *Part %s' % p.name)
            else:
                list(cards.data())
        self.parts[p.name] = p

    def _elements(self, line, cards, p):
        etype = line.params.get('TYPE') or ''
        m = _re.fullmatch(r'[A-Z]*C3D(\d+)[A-Z]*', etype)
        if not m or int(m.group(1)) not in _CORNERS:
            raise line.error('element type %r in part %s: the reader takes 3D solids C3D4, C3D6, C3D8, C3D10, C3D15, C3D20 (and variants)' % (etype, p.name))
        count = int(m.group(1))
        pending = []  # an element's numbers may continue on the next lines
        for d in cards.data():
            pending += d.numbers(int)
            if len(pending) > count + 1:
                raise d.error('element %d of type %s has %d nodes, expected %d' % (pending[0], etype, len(pending) - 1, count))
            if len(pending) == count + 1:
                p.abqelements[pending[0]] = (etype,) + tuple(pending[1:])
                pending = []
        if pending:
            raise line.error('the last element of this *Element block (%d) has %d of its %d nodes' % (pending[0], len(pending) - 1, count))

    def _set(self, line, cards, p):
        kw = line.keyword
        name = line.params.get(kw)  # nset= or elset=
        if not name:
            raise line.error('*%s has no %s=' % (kw.title(), kw.lower()))
        ids = []
        for d in cards.data():
            v = d.numbers(int)
            if 'GENERATE' in line.params:
                if len(v) not in (2, 3) or (len(v) == 3 and v[2] <= 0):
                    raise d.error('a generate line is first, last[, increment > 0], got %r' % ','.join(d.fields))
                ids += range(v[0], v[1] + 1, v[2] if len(v) == 3 else 1)
            else:
                ids += v
        if 'INTERNAL' in line.params:
            return  # Abaqus/CAE's picked sets
        (p.abqnodesets if kw == 'NSET' else p.abqelsets)[name] = ids

    def _assembly(self, cards):
        while True:
            line = cards.take()
            if line is None:
                raise AbaqusError('%s: *Assembly has no *End Assembly' % self.path)
            if line.keyword == 'END ASSEMBLY':
                return
            if line.keyword == 'INSTANCE':
                self._instance(line, cards)
            elif line.keyword is None:
                raise line.error('a data line with no keyword before it in the *Assembly')
            else:
                list(cards.data())  # *Nset, *Elset, *Node of reference points, *Surface...: not needed

    def _instance(self, line, cards):
        i = Instance(self._name(line, 'Instance'))
        partname = line.params.get('PART')
        if partname not in self.parts:
            raise line.error('*Instance %s: part=%s is not a *Part read before it' % (i.name, partname))
        if i.name in self.assembly.instances:
            raise line.error('a second *Instance named %s' % i.name)
        i.part = self.parts[partname]
        for d in cards.data():
            v = d.numbers(float)
            if len(v) == 3:
                i.translate = tuple(v)
            elif len(v) == 7:
                i.point = tuple(v[0:3])
                i.direction = tuple(b - a for a, b in zip(v[0:3], v[3:6]))
                i.angle = v[6]
            else:
                raise d.error('*Instance %s: a data line is a translation (3 numbers) or a rotation (7), got %d' % (i.name, len(v)))
        end = cards.take()
        if end is None or end.keyword != 'END INSTANCE':
            raise line.error('*Instance %s has no *End Instance after its data lines' % i.name)
        self.assembly.instances[i.name] = i

    def _material(self, line, cards):
        mat = ElasticMaterial(self._name(line, 'Material'))
        list(cards.data())
        while cards.peek() is not None and cards.peek().keyword in ('DENSITY', 'ELASTIC', 'DAMPING', 'EXPANSION', 'CONDUCTIVITY', 'SPECIFIC HEAT', 'PLASTIC'):
            sub = cards.take()
            rows = list(cards.data())
            if sub.keyword == 'DENSITY':
                if not rows:
                    raise sub.error('*Density of material %s has no data line' % mat.name)
                mat.density = rows[0].numbers(float, 1)[0]
            elif sub.keyword == 'ELASTIC':
                if sub.params.get('TYPE', 'ISOTROPIC') != 'ISOTROPIC':
                    raise sub.error('*Elastic, type=%s of material %s: the reader takes isotropic elasticity' % (sub.params['TYPE'], mat.name))
                if not rows:
                    raise sub.error('*Elastic of material %s has no data line' % mat.name)
                mat.Ym, mat.poisson = rows[0].numbers(float, 2)[:2]
        self.materials[mat.name] = mat

    # ---------------------------------------------------------------- solfec objects
    def convert(self):
        """Every part's MESH data, every instance's mesh and (given solfec) material."""
        for p in self.parts.values():
            p.convert(self.volid, self.gid)
        for i in self.assembly.instances.values():
            self._say('instance %s' % i.name)
            bulkmat = None
            if self.solfec is not None:
                name = i.part.materialname
                if name not in self.materials:
                    raise AbaqusError('%s: instance %s: its part %s has %s' % (
                        self.path, i.name, i.part.name,
                        'no *Solid Section naming a material' if name is None else 'material %s, which no *Material defines' % name))
                bulkmat = self.materials[name].convert(self.solfec).bulkmat
            i.convert(bulkmat)

    def __str__(self):
        return 'AbaqusInput from "%s" with %d parts, %d instances, %d materials' % (
            self.path, len(self.parts), len(self.assembly.instances) if self.assembly else 0, len(self.materials))
