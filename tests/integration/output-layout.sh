#!/usr/bin/env bash
# Results layout (doc/output.md) on 1, 2 and 3 ranks: tests/drivers/outdemo writes a small
# scene (spheres, boxes, pentagonal prisms, a compound, an obstacle; gravity) with MbOutput.
# Checks with h5py: every documented group and dataset with its shape and type; the
# geometry is consistent with conf/velo (sphere centres and velocities, cell velocities,
# Mixed topology); /history is the same on 1, 2 and 3 ranks to 1e-12; frames sorted by body
# id agree across rank counts; the .xmf parses as XML and every DataItem names a dataset of
# the .h5 with the stated dimensions. And a directory that cannot be made fails on every rank
# with a message naming it (no rank hangs).
source "$(dirname "$0")/../lib.sh"
DEMO="$MB_BUILD/tests/drivers/outdemo"
if [ ! -x "$DEMO" ]; then notok "driver $DEMO is built (make BUILD=... all)"; exit 1; fi

for np in 1 2 3; do
  check "outdemo runs on $np rank(s)" timeout 120 $MPIRUN -np $np "$DEMO" -dir "$TMP/np$np/sub" -name demo -n 3 -duration 0.3 -interval 0.05
done

"$PY" - "$TMP" <<'EOF'
import sys, os
import xml.etree.ElementTree as ET
import numpy as np
import h5py

tmp = sys.argv[1]
HIST = ["time", "step", "kinetic", "internal", "external", "contact", "friction",
        "iterations", "error", "contacts", "curvature", "estimate", "rejected", "walltime"]
nbad = 0


def tap(ok, name, detail=""):
    global nbad
    print(("ok - " if ok else "not ok - ") + name + ("" if ok or not detail else "  # " + detail))
    nbad += not ok


def path(np_):
    return os.path.join(tmp, "np%d" % np_, "sub", "demo.h5")


def layout(f):
    """The documented layout; returns a list of problems."""
    bad = []
    for g in ["bodies", "history", "mesh", "frames"]:
        if g not in f:
            bad.append("no /" + g)
    if bad:
        return bad
    for a in ["moreau_version", "layout_version", "name"]:
        if a not in f.attrs:
            bad.append("no root attribute " + a)
    b = f["bodies"]
    nb = b["id"].shape[0]
    want = {"id": ((nb,), "i"), "kind": ((nb,), "i"), "mass": ((nb,), "f"), "volume": ((nb,), "f"),
            "center": ((nb, 3), "f"), "label": ((nb,), "S")}
    for k, (shape, kind) in want.items():
        if k not in b or b[k].shape != shape or b[k].dtype.kind != kind:
            bad.append("/bodies/%s: want %s %s" % (k, shape, kind))
    if sorted(b["id"][()]) != list(range(nb)):
        bad.append("/bodies/id is not a permutation of 0..%d" % (nb - 1))
    h = f["history"]
    nh = h["time"].shape[0]
    for k in HIST:
        if k not in h or h[k].shape != (nh,) or h[k].dtype.kind != ("i" if k in ("iterations", "contacts", "rejected") else "f"):
            bad.append("/history/%s" % k)
    for m in f["mesh"].values():
        for k in ["surface_topology", "surface_body", "sphere_body", "sphere_radius"]:
            if k not in m:
                bad.append("%s/%s missing" % (m.name, k))
        if m["surface_body"].shape != (m.attrs["cells"],) or m["sphere_body"].shape != (m.attrs["spheres"],):
            bad.append("%s sizes" % m.name)
    for fr in f["frames"].values():
        for a in ["time", "steps", "mesh"]:
            if a not in fr.attrs:
                bad.append("%s: no attribute %s" % (fr.name, a))
        m = f["mesh/%06d" % fr.attrs["mesh"]]
        n = fr["id"].shape[0]
        want = {"id": (n,), "conf": (n, 12), "velo": (n, 6), "surface_points": (m.attrs["points"], 3),
                "surface_velo": (m.attrs["cells"], 3), "sphere_center": (m.attrs["spheres"], 3),
                "sphere_velo": (m.attrs["spheres"], 3), "surface_displacement": (m.attrs["points"], 3),
                "surface_point_velo": (m.attrs["points"], 3), "surface_stress": (m.attrs["cells"], 6)}
        for k, shape in want.items():
            if k not in fr or fr[k].shape != shape:
                bad.append("%s/%s: want %s" % (fr.name, k, shape))
    return bad


def lam(q):
    """Λ (3×3) from the column-wise first 9 entries of conf."""
    return q[:9].reshape(3, 3).T


def geometry(f):
    """Consistency of the geometry with conf/velo; returns a list of problems."""
    bad = []
    for fr in f["frames"].values():
        m = f["mesh/%06d" % fr.attrs["mesh"]]
        ids, conf, velo = fr["id"][()], fr["conf"][()], fr["velo"][()]
        row = {int(i): k for k, i in enumerate(ids)}
        for k in range(n := len(ids)):
            L = lam(conf[k])
            if np.abs(L.T @ L - np.eye(3)).max() > 1e-12:
                bad.append("%s: rotation of body %d not orthogonal" % (fr.name, ids[k]))
        # spheres: x_c = x̄ + Λ(c − X̄) and v_c = v + Λ(Ω × Λᵀ(x_c − x̄))
        for c, vc, b in zip(fr["sphere_center"][()], fr["sphere_velo"][()], m["sphere_body"][()]):
            k = row[int(b)]
            L, xbar, om, v = lam(conf[k]), conf[k][9:], velo[k][:3], velo[k][3:]
            want = v + L @ np.cross(om, L.T @ (c - xbar))
            if np.abs(vc - want).max() > 1e-10:
                bad.append("%s: sphere velocity of body %d" % (fr.name, b))
        # cells: velocity is the body's linear velocity
        for vcell, b in zip(fr["surface_velo"][()], m["surface_body"][()]):
            if np.abs(vcell - velo[row[int(b)]][3:]).max() != 0:
                bad.append("%s: cell velocity of body %d" % (fr.name, b))
                break
        # topology: 4 (triangle) or 5 (quadrilateral), then point indices in range
        topo, npts, k, cells = m["surface_topology"][()], m.attrs["points"], 0, 0
        while k < len(topo):
            nv = {4: 3, 5: 4}.get(int(topo[k]))
            if nv is None or any(not 0 <= i < npts for i in topo[k + 1:k + 1 + nv]):
                bad.append("%s: bad topology at %d" % (m.name, k))
                break
            k += 1 + nv
            cells += 1
        if cells != m.attrs["cells"]:
            bad.append("%s: %d cells in the topology, %d stated" % (m.name, cells, m.attrs["cells"]))
    return bad


def by_body(f, fr):
    """Frame data sorted by body id, with the geometry regrouped per body (the order within a
    body is the same on any number of ranks)."""
    m = f["mesh/%06d" % fr.attrs["mesh"]]
    order = np.argsort(fr["id"][()], kind="stable")
    out = {"id": fr["id"][()][order], "conf": fr["conf"][()][order], "velo": fr["velo"][()][order]}
    sb = m["sphere_body"][()]
    so = np.argsort(sb, kind="stable")
    out["sphere_center"], out["sphere_velo"], out["sphere_radius"] = fr["sphere_center"][()][so], fr["sphere_velo"][()][so], m["sphere_radius"][()][so]
    # surface points: body of each point from the cells that use it
    topo, cb, pb = m["surface_topology"][()], m["surface_body"][()], np.full(m.attrs["points"], -1)
    cells, k, c = [], 0, 0
    while k < len(topo):
        nv = 3 if topo[k] == 4 else 4
        pts = topo[k + 1:k + 1 + nv]
        pb[pts] = cb[c]
        cells.append((int(cb[c]), pts))
        k, c = k + 1 + nv, c + 1
    po = np.argsort(pb, kind="stable")
    out["surface_points"] = fr["surface_points"][()][po]
    first = {int(b): int(np.nonzero(pb == b)[0].min()) for b in np.unique(pb)}
    cells = sorted(enumerate(cells), key=lambda e: (e[1][0], e[0]))
    out["cells"] = [(b, tuple(int(i) - first[b] for i in pts)) for _, (b, pts) in cells]
    out["surface_velo"] = fr["surface_velo"][()][[i for i, _ in cells]]
    return out


files = {np_: h5py.File(path(np_), "r") for np_ in (1, 2, 3) if os.path.exists(path(np_))}
tap(len(files) == 3, "three result files written")
for np_, f in files.items():
    bad = layout(f)
    tap(not bad, "layout as documented (%d ranks)" % np_, "; ".join(bad[:5]))
    bad = geometry(f)
    tap(not bad, "geometry consistent with conf/velo (%d ranks)" % np_, "; ".join(bad[:5]))

if len(files) == 3:
    f1 = files[1]
    tap(len(f1["frames"]) == 7 and np.allclose([fr.attrs["time"] for fr in f1["frames"].values()], np.arange(7) * 0.05),
        "frames at t = 0, 0.05, ..., 0.3", str([fr.attrs["time"] for fr in f1["frames"].values()]))
    tap(f1["history/time"].shape == (300,), "one /history record per step (300)", str(f1["history/time"].shape))
    for np_ in (2, 3):
        f = files[np_]
        diffs = []
        for k in HIST:
            if k == "walltime":
                continue
            a, b = f1["history"][k][()], f["history"][k][()]
            if a.shape != b.shape or np.abs(a - b).max(initial=0) > 1e-12 * max(1.0, np.abs(a).max(initial=0)):
                diffs.append(k)
        tap(not diffs, "/history identical on 1 and %d ranks" % np_, ",".join(diffs))
        diffs = []
        if sorted(f1["frames"]) != sorted(f["frames"]):
            diffs.append("frame names")
        for name in sorted(f1["frames"]):
            if name not in f["frames"]:
                continue
            a, b = by_body(f1, f1["frames"][name]), by_body(f, f["frames"][name])
            for k in a:
                if k == "cells":
                    if a[k] != b[k]:
                        diffs.append("%s/%s" % (name, k))
                elif a[k].shape != b[k].shape or np.abs(a[k] - b[k]).max(initial=0) > 1e-12:
                    diffs.append("%s/%s" % (name, k))
        tap(not diffs, "frames sorted by body id agree on 1 and %d ranks" % np_, ",".join(diffs[:6]))
        labels = lambda g: sorted(zip(g["bodies/id"][()], g["bodies/label"][()], g["bodies/mass"][()]))
        tap(labels(f1) == labels(f), "/bodies sorted by id agree on 1 and %d ranks" % np_)

# XDMF: parses; every DataItem names an existing dataset with the stated dimensions
for np_, f in files.items():
    xmf = path(np_)[:-3] + ".xmf"
    bad = []
    try:
        root = ET.parse(xmf).getroot()
    except ET.ParseError as e:
        tap(False, "demo.xmf parses as XML (%d ranks)" % np_, str(e))
        continue
    tap(True, "demo.xmf parses as XML (%d ranks)" % np_)
    tap(root.tag == "Xdmf" and root.get("Version") in ("2.0", "3.0"), "demo.xmf is Xdmf 2.0/3.0 (%d ranks)" % np_)
    items = root.findall(".//DataItem")
    for it in items:
        fname, _, dset = it.text.strip().partition(":")
        if fname != "demo.h5":
            bad.append("file %s" % fname)
        elif dset not in f:
            bad.append("missing %s" % dset)
        elif tuple(int(d) for d in it.get("Dimensions").split()) != f[dset].shape:
            bad.append("%s dims %s vs %s" % (dset, it.get("Dimensions"), f[dset].shape))
    tap(items and not bad, "demo.xmf references %d existing datasets (%d ranks)" % (len(items), np_), "; ".join(bad[:5]))
    temporal = root.find("Domain/Grid")
    frames = temporal.findall("Grid") if temporal is not None else []
    times = [float(g.find("Time").get("Value")) for g in frames]
    tap(temporal is not None and temporal.get("CollectionType") == "Temporal" and
        np.allclose(times, [fr.attrs["time"] for fr in f["frames"].values()]),
        "demo.xmf: temporal collection of %d frames with the frames' times (%d ranks)" % (len(frames), np_))
    kinds = {g.get("Name"): g.find("Topology").get("TopologyType") for g in frames[-1].findall("Grid")} if frames else {}
    tap(kinds == {"bodies": "Mixed", "spheres": "Polyvertex"}, "last frame has bodies (Mixed) and spheres (Polyvertex) (%d ranks)" % np_, str(kinds))
sys.exit(1 if nbad else 0)
EOF
pyrc=$?
[ $pyrc -eq 0 ] || notok "python checks exited $pyrc"

# a directory below a regular file: every rank fails with the directory's name, none hangs
touch "$TMP/plain"
expect_error "unwritable output directory fails on 2 ranks, naming it" "cannot write output directory '$TMP/plain/out'" \
  timeout 60 $MPIRUN -np 2 "$DEMO" -dir "$TMP/plain/out" -name demo -duration 0.01
