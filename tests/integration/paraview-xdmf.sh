#!/usr/bin/env bash
# ParaView reads the XDMF index: tests/drivers/outdemo writes a small scene on 2 ranks;
# pvpython loads OUTDIR/demo.xmf with the XDMF reader, checks the number of frames and the
# points, cells and arrays of the last frame against the .h5, and scripts/mbrender renders
# the last frame to a PNG that must not be blank. Skips (77) without pvpython; the rendering
# needs a display: $DISPLAY, or xvfb-run (package xvfb).
source "$(dirname "$0")/../lib.sh"
DEMO="$MB_BUILD/tests/drivers/outdemo"
PVPYTHON=$(command -v pvpython || true)
PVBATCH=$(command -v pvbatch || true)
if [ -z "$PVPYTHON" ] || ! "$PVPYTHON" -c 'import paraview.simple' >/dev/null 2>&1; then
  echo "pvpython with paraview.simple not found (Debian: paraview python3-paraview)"; exit 77
fi
if [ ! -x "$DEMO" ]; then notok "driver $DEMO is built"; exit 1; fi

check "outdemo writes the scene on 2 ranks" timeout 120 $MPIRUN -np 2 "$DEMO" -dir "$TMP/out" -name demo -n 3 -duration 0.2 -interval 0.1

cat >"$TMP/load.py" <<'EOF'
import sys
from paraview.simple import XDMFReader, servermanager
xmf, npts, ncells, nsph, nframes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
bad = 0
def tap(ok, name):
    global bad
    print(("ok - " if ok else "not ok - ") + name)
    bad += not ok
r = XDMFReader(FileNames=[xmf])
r.UpdatePipelineInformation()
times = list(r.TimestepValues)
tap(len(times) == nframes, "pvpython: %d time steps (want %d)" % (len(times), nframes))
r.UpdatePipeline(times[-1])
d = servermanager.Fetch(r)
blocks = {}
for i in range(d.GetNumberOfBlocks()):
    name = d.GetMetaData(i).Get(d.NAME()).split("[")[0]
    blocks[name] = d.GetBlock(i)
tap(sorted(blocks) == ["bodies", "spheres"], "pvpython: blocks %s" % sorted(blocks))
b, s = blocks.get("bodies"), blocks.get("spheres")
if b is not None:
    tap(b.GetNumberOfPoints() == npts and b.GetNumberOfCells() == ncells,
        "pvpython: bodies has %d points, %d cells (want %d, %d)" % (b.GetNumberOfPoints(), b.GetNumberOfCells(), npts, ncells))
    types = sorted({b.GetCellType(k) for k in range(b.GetNumberOfCells())})
    tap(types == [5, 9], "pvpython: bodies cells are triangles and quads (VTK types %s)" % types)
    tap(b.GetCellData().GetArray("id") is not None and b.GetCellData().GetArray("velocity").GetNumberOfComponents() == 3,
        "pvpython: bodies cell arrays id, velocity")
    st, pdis, pv = b.GetCellData().GetArray("stress"), b.GetPointData().GetArray("displacement"), b.GetPointData().GetArray("point_velocity")
    tap(st is not None and st.GetNumberOfComponents() in (6, 9) and pdis is not None and pdis.GetNumberOfComponents() == 3 and pv is not None and pv.GetNumberOfComponents() == 3,
        "pvpython: bodies cell array stress (a symmetric tensor), point arrays displacement and point_velocity")
if s is not None:
    tap(s.GetNumberOfPoints() == nsph and s.GetNumberOfCells() == nsph,
        "pvpython: spheres has %d points, %d cells (want %d)" % (s.GetNumberOfPoints(), s.GetNumberOfCells(), nsph))
    pd = s.GetPointData()
    tap(all(pd.GetArray(a) is not None for a in ("radius", "id", "velocity")), "pvpython: spheres point arrays radius, id, velocity")
sys.exit(1 if bad else 0)
EOF
# expected sizes of the last frame from the .h5 (Debian python with h5py)
read -r npts ncells nsph nframes < <("$PY" - "$TMP/out/demo.h5" <<'EOF'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
last = f["frames"][sorted(f["frames"])[-1]]
m = f["mesh/%06d" % last.attrs["mesh"]]
print(m.attrs["points"], m.attrs["cells"], m.attrs["spheres"], len(f["frames"]))
EOF
)
echo "# expecting $npts points, $ncells cells, $nsph spheres, $nframes frames"
timeout 300 "$PVPYTHON" "$TMP/load.py" "$TMP/out/demo.xmf" "$npts" "$ncells" "$nsph" "$nframes" 2>"$TMP/load.err" || { notok "pvpython load script"; tail -5 "$TMP/load.err" | sed 's/^/# /'; }

# rendering needs a display
render=("$PVBATCH" "$MB_ROOT/scripts/mbrender" "$TMP/out/demo.xmf" --frame -1 --png "$TMP/shot.png" --size 400x300)
if [ -z "${DISPLAY:-}" ]; then
  if command -v xvfb-run >/dev/null; then render=(xvfb-run -a "${render[@]}")
  else echo "# no DISPLAY and no xvfb-run: rendering skipped (Debian: xvfb)"; exit 0; fi
fi
timeout 300 "${render[@]}" >"$TMP/render.log" 2>&1 || { notok "mbrender ran"; tail -5 "$TMP/render.log" | sed 's/^/# /'; }
check "mbrender wrote a PNG that is not blank" "$PY" - "$TMP/shot.png" <<'EOF'
import sys
import matplotlib.image as mpimg
im = mpimg.imread(sys.argv[1])[..., :3]
frac = (im.min(axis=2) < 0.95).mean()  # share of pixels that are not (near) white
print("# %.1f%% of the pixels are drawn" % (100 * frac))
sys.exit(0 if 0.02 < frac < 0.9 else 1)
EOF
