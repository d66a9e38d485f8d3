"""The Blender side of the photo-realistic family (run by ``blender_scenes.py``,
never by hand): ``blender -b --factory-startup -P benchmarks/blender_scene_bpy.py
-- SPEC.json OUTDIR SAMPLES WIDTH HEIGHT``.

SPEC.json is a list of scenes made by the host (the Fenn position, dice set and
pip layouts come from the project there). For each scene this builds the table,
the board or tray, dice with rounded edges and pips as hollows (a boolean cut,
the hollows painted), clutter, lights and the Pi-like camera, renders it with
Cycles on the CPU to ``OUTDIR/<name>.png`` and writes the exact truth to
``OUTDIR/<name>.json``: 3D points projected with ``world_to_camera_view``, each
die's top face from its rotation, its field from its position on the board.
Units: metres, radians.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time

import bmesh
import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Matrix, Vector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_materials_bpy as M  # noqa: E402
import blender_props_bpy as P  # noqa: E402

FIELD = 0.025  # a field of the board, m (fenn.md: the board 2.5 x 22.5 cm, 9 fields)
BOARD_W = 0.025
BOARD_L = 9 * FIELD
D6_OPPOSITE = {1: 6, 6: 1, 2: 5, 5: 2, 3: 4, 4: 3}
NORMALS = [(0, 0, 1), (0, 0, -1), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0)]


# -- geometry ---------------------------------------------------------------------------------------------------------
link = P.link


def box(name, sx, sy, sz, mat, bevel=0.0, segments=3):
    """A box of ``sx × sy × sz`` centred on its origin, edges rounded by ``bevel``."""
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    for v in bm.verts:
        v.co = Vector((v.co.x * sx, v.co.y * sy, v.co.z * sz))
    if bevel:
        bmesh.ops.bevel(bm, geom=bm.edges[:], offset=bevel, segments=segments, affect="EDGES", profile=0.5)
    return link(name, bm, [mat])


def cut(ob, cutter_bm, mat):
    """Subtract ``cutter_bm`` from ``ob`` (exact boolean, the cut faces take ``mat``), applied."""
    cutter = link(ob.name + "-cut", cutter_bm, [mat])
    mod = ob.modifiers.new("cut", "BOOLEAN")
    mod.operation, mod.solver, mod.object = "DIFFERENCE", "EXACT", cutter
    mod.material_mode = "TRANSFER"
    dg = bpy.context.evaluated_depsgraph_get()
    me = bpy.data.meshes.new_from_object(ob.evaluated_get(dg))
    ob.modifiers.remove(mod)
    ob.data = me
    bpy.data.objects.remove(cutter)
    return ob


def die(name, side, faces, layout, body, pip, rng):
    """A die of edge ``side`` with ``faces`` (local normal → value) and pip hollows at ``layout`` (value →
    pip centres in quarter sides, x right, y down), pip paint in the hollows. Stores the faces for the labels."""
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=side)
    bmesh.ops.bevel(bm, geom=bm.edges[:], offset=side * rng.uniform(0.09, 0.15), segments=4, affect="EDGES",
                    profile=0.5)
    ob = link(name, bm, [body])
    most = max(len(layout[str(v)]) for v in faces.values())
    r = side * (0.085 if most <= 6 else 0.075)
    depth = side * rng.uniform(0.035, 0.05)
    off = (r * r - depth * depth) / (2 * depth)
    cb = bmesh.new()
    q = side / 4
    for n, value in faces.items():
        n = Vector(n)
        u = Vector((0, 0, 1)).cross(n) if abs(n.z) < 0.5 else Vector((1, 0, 0))
        u.normalize()
        v = n.cross(u)
        for _ in range(rng.randrange(4)):
            u, v = v, -u
        for px, py in layout[str(value)]:
            c = n * (side / 2 + off) + u * (px * q) - v * (py * q)
            bmesh.ops.create_uvsphere(cb, u_segments=20, v_segments=12, radius=off + depth, matrix=Matrix.Translation(c))
    cut(ob, cb, pip)
    ob["faces"] = json.dumps([[list(n), val] for n, val in faces.items()])
    ob["side"] = side
    return ob


def faces_for(top, values, opposite, rng):
    """Local normal → value with ``top`` on +z, its opposite below, the other two pairs around."""
    opposite = {int(k): v for k, v in opposite.items()}
    pairs, seen = [], {top, opposite[top]}
    for v in values:
        if v not in seen:
            pairs.append((v, opposite[v]))
            seen |= {v, opposite[v]}
    rng.shuffle(pairs)
    (a, b), (c, d) = [p if rng.random() < 0.5 else p[::-1] for p in pairs]
    return {(0, 0, 1): top, (0, 0, -1): opposite[top], (1, 0, 0): a, (-1, 0, 0): b, (0, 1, 0): c, (0, -1, 0): d}


def top_of(ob):
    """The value on the face pointing most up (world z), and that face's centre in world coordinates."""
    rot = ob.matrix_world.to_3x3()
    best = max(json.loads(ob["faces"]), key=lambda nv: (rot @ Vector(nv[0])).z)
    centre = ob.matrix_world @ (Vector(best[0]) * (ob["side"] / 2))
    return best[1], centre


def place(ob, x, y, z, yaw, tilt=(0.0, 0.0)):
    ob.location = (x, y, z)
    ob.rotation_euler = (tilt[0], tilt[1], yaw)


# -- 2D footprints: rectangles (cx, cy, half w, half h, angle) and separation ---------------------------------------
def _corners(r):
    cx, cy, hw, hh, a = r
    c, s = math.cos(a), math.sin(a)
    return [(cx + c * x - s * y, cy + s * x + c * y) for x, y in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))]


def overlap(r1, r2, gap=0.0):
    """True when two rotated rectangles (grown by ``gap``) overlap (separating axis test)."""
    r1 = (r1[0], r1[1], r1[2] + gap, r1[3] + gap, r1[4])
    p1, p2 = _corners(r1), _corners(r2)
    for poly in (p1, p2):
        for i in range(2):
            ex, ey = poly[i + 1][0] - poly[i][0], poly[i + 1][1] - poly[i][1]
            ax = (-ey, ex)
            a = [ax[0] * x + ax[1] * y for x, y in p1]
            b = [ax[0] * x + ax[1] * y for x, y in p2]
            if max(a) < min(b) or max(b) < min(a):
                return False
    return True


def free_spot(rng, taken, hw, hh, sampler, gap=0.004, tries=200):
    """A footprint of half sizes ``hw, hh`` from ``sampler()`` → (x, y) that overlaps nothing in ``taken``."""
    for _ in range(tries):
        x, y = sampler()
        r = (x, y, hw, hh, rng.uniform(0, math.pi))
        if not any(overlap(r, t, gap) for t in taken):
            taken.append(r)
            return r
    return None


# -- camera, lights, world, render ---------------------------------------------------------------------------------
def camera(rng, target, height, size):
    """The Pi camera (3.68 mm sensor, 62-66° horizontal view) ``height`` m above the table, tilted up to 12°."""
    cam = bpy.data.cameras.new("pi")
    cam.sensor_fit = "HORIZONTAL"
    cam.sensor_width = 3.68
    hfov = math.radians(rng.uniform(62, 66))
    cam.lens = cam.sensor_width / 2 / math.tan(hfov / 2)
    cam.clip_start = 0.01
    ob = bpy.data.objects.new("pi", cam)
    bpy.context.scene.collection.objects.link(ob)
    tilt, az = math.radians(rng.uniform(0, 12)), rng.uniform(0, 2 * math.pi)
    up = Vector((math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), math.cos(tilt)))
    ob.location = Vector(target) + up * (height / math.cos(tilt))
    q = (-up).to_track_quat("-Z", "Y")
    ob.rotation_euler = (q.to_matrix().to_4x4() @ Matrix.Rotation(rng.uniform(0, 2 * math.pi), 4, "Z")).to_euler()
    bpy.context.scene.camera = ob
    sc = bpy.context.scene
    sc.render.resolution_x, sc.render.resolution_y = size
    sc.render.resolution_percentage = 100
    bpy.context.view_layer.update()
    return ob, {"hfov_deg": round(math.degrees(hfov), 2), "tilt_deg": round(math.degrees(tilt), 2),
                "height_m": round(height, 3)}


def px(cam, p):
    """Frame pixel ``[x, y]`` (y down) of world point ``p``."""
    sc = bpy.context.scene
    v = world_to_camera_view(sc, cam, Vector(p))
    return [round(v.x * sc.render.resolution_x, 1), round((1 - v.y) * sc.render.resolution_y, 1)]


def inside(cam, points, margin):
    w, h = bpy.context.scene.render.resolution_x, bpy.context.scene.render.resolution_y
    return all(margin * w <= x <= (1 - margin) * w and margin * h <= y <= (1 - margin) * h
               for x, y in (px(cam, p) for p in points))


def lights(rng, target):
    """A key light (area or sun) of random direction and colour temperature, sometimes a fill; a world colour."""
    words = []
    n = 1 + (rng.random() < 0.35)
    for i in range(n):
        kelvin = rng.uniform(2900, 6500)
        tint = M.kelvin_rgb(kelvin)
        tint = tuple(0.45 * c / max(tint) + 0.55 for c in tint)  # the camera's white balance takes most of it
        elev, az = math.radians(rng.uniform(35, 82)), rng.uniform(0, 2 * math.pi)
        d = Vector((math.cos(elev) * math.cos(az), math.cos(elev) * math.sin(az), math.sin(elev)))
        scale = 1.0 if i == 0 else rng.uniform(0.2, 0.5)
        if rng.random() < 0.3:
            light = bpy.data.lights.new(f"sun{i}", "SUN")
            light.energy = rng.uniform(2.5, 4.5) * scale
            light.angle = math.radians(rng.uniform(1, 12))
            dist = 2.0
            words.append(f"sun {int(kelvin)}K")
        else:
            light = bpy.data.lights.new(f"area{i}", "AREA")
            light.shape = rng.choice(["SQUARE", "DISK", "RECTANGLE"])
            light.size, light.size_y = rng.uniform(0.2, 1.0), rng.uniform(0.2, 1.0)
            dist = rng.uniform(1.0, 2.2)
            light.energy = rng.uniform(2.5, 4.5) * math.pi * dist * dist * scale * 1.2
            words.append(f"area {int(kelvin)}K")
        light.color = tint
        ob = bpy.data.objects.new(light.name, light)
        bpy.context.scene.collection.objects.link(ob)
        ob.location = Vector(target) + d * dist
        ob.rotation_euler = (-d).to_track_quat("-Z", "Y").to_euler()
    world = bpy.data.worlds.new("world")
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    bg.inputs["Color"].default_value = (*[rng.uniform(0.7, 1.0) for _ in range(3)], 1)
    bg.inputs["Strength"].default_value = rng.uniform(0.15, 0.5)
    bpy.context.scene.world = world
    return words


def render(path, samples):
    sc = bpy.context.scene
    sc.render.engine = "CYCLES"
    cy = sc.cycles
    cy.device = "CPU"
    cy.samples = samples
    cy.use_adaptive_sampling = True
    cy.adaptive_threshold = 0.04
    cy.use_denoising = False
    cy.max_bounces, cy.diffuse_bounces, cy.glossy_bounces = 4, 2, 2
    cy.transmission_bounces, cy.transparent_max_bounces = 4, 4
    cy.caustics_reflective = cy.caustics_refractive = False
    cy.blur_glossy = 1.0
    cy.sample_clamp_indirect = 3.0
    cy.seed = random.randrange(1 << 30)
    sc.view_settings.view_transform = "Filmic"
    sc.view_settings.look = "Medium High Contrast"
    sc.render.image_settings.file_format = "PNG"
    sc.render.filepath = path
    bpy.ops.render.render(write_still=True)


def table_plane(rng):
    mat, words = M.table(rng)
    box("table", 3.0, 3.0, 0.02, mat).location = (0, 0, -0.01)
    return words


# -- scenes ------------------------------------------------------------------------------------------------------------
def fenn_scene(spec, rng, size):
    """The Fenn board with the blue and red dice on their fields, the black die beside, clutter; returns the labels.
    ``rng`` draws the set-up (table, board, dice bodies, black die's place, clutter, camera, lights: the same for
    every frame of a game); the dice's places on their fields, a hand and a lifted die are drawn per frame."""
    drng = random.Random(f"frame-{spec['seed']}")
    table = table_plane(rng)
    thick = rng.uniform(0.003, 0.005)
    board_ob, board_words = P.board(rng, BOARD_L, BOARD_W, thick, box)
    yaw = rng.uniform(0, 2 * math.pi)
    board_ob.rotation_euler = (0, 0, yaw)
    bpy.context.view_layer.update()
    bmat = board_ob.matrix_world.copy()
    side = rng.uniform(0.018, 0.025)
    layout = spec["layout_pips"]
    bodies = {c: M.die_body(rng, "wood") for c in ("blue", "red", "black")}
    paints = {c: M.pip_paint(rng, c) for c in ("blue", "red", "black")}
    taken = [(0, 0, BOARD_L / 2, BOARD_W / 2, yaw)]
    # the black die: beside the board, near it or a hand's width away, any angle (F14)
    black = die("black", side, faces_for(spec["black"], spec["faces"]["black"], spec["opposite"]["black"], drng),
                layout, bodies["black"][0], paints["black"], drng)
    far = rng.choice([rng.uniform(0.01, 0.04), rng.uniform(0.04, 0.12)])

    def beside():
        if rng.random() < 0.8:
            lx, ly = rng.uniform(-BOARD_L / 2, BOARD_L / 2), rng.choice([-1, 1]) * (BOARD_W / 2 + side * 0.7 + far)
        else:
            lx, ly = rng.choice([-1, 1]) * (BOARD_L / 2 + side * 0.7 + far), rng.uniform(-0.03, 0.03)
        w = bmat @ Vector((lx, ly, 0))
        return w.x, w.y
    r = free_spot(rng, taken, side / 2, side / 2, beside, gap=0.003)
    place(black, r[0], r[1], side / 2, r[4])
    stray = []
    if spec.get("stray"):
        kind = rng.choice(["white", "cream", "red", "black", "wood"])
        s6 = rng.uniform(0.014, 0.019)
        ob = die("stray", s6, faces_for(spec["stray"], [1, 2, 3, 4, 5, 6], D6_OPPOSITE, drng), spec["d6_pips"],
                 M.die_body(rng, kind)[0], M.pip_paint(rng, "black" if kind in ("white", "cream", "wood") else "white"),
                 drng)
        r = free_spot(rng, taken, s6 / 2, s6 / 2, lambda: (rng.uniform(-0.18, 0.18), rng.uniform(-0.14, 0.14)), 0.02)
        if r:
            place(ob, r[0], r[1], s6 / 2, r[4])
            stray.append(ob)
    clutter = P.clutter(rng, [(0, 0, BOARD_L / 2 + 0.03, BOARD_W / 2 + 0.03, yaw)] + taken[1:], box, cut, free_spot,
                        reach=0.25)
    # the camera: the board (with room for dice overhanging it), the black die and a stray die in view
    pts = [bmat @ Vector((sx * (BOARD_L / 2 + 0.012), sy * (BOARD_W / 2 + 0.015), thick))
           for sx in (-1, 1) for sy in (-1, 1)]
    pts += [o.location for o in [black, *stray]]
    centre = sum(pts, Vector()) / len(pts)
    for i in range(60):
        spread = 0.06 * (1 - i / 60)
        target = (centre.x + rng.uniform(-spread, spread), centre.y + rng.uniform(-spread, spread), 0)
        cam, cam_words = camera(rng, target, rng.uniform(0.40, 0.60) + i * 0.002, size)
        if inside(cam, pts, 0.03) or i == 59:  # the last try stands even if something is cut off
            break
        bpy.data.objects.remove(cam)
    light_words = lights(rng, centre)
    # the dice on their fields: off-centre, overhanging, turned a little (per frame)
    dice_obs = {}
    for colour in ("blue", "red"):
        field, top = spec[colour]
        for _ in range(300):
            dx = drng.gauss(0, 0.08) * FIELD
            if field in (1, 9) or drng.random() < 0.3:
                dx = drng.uniform(-0.3, 0.3) * FIELD
            dy = drng.gauss(0, 0.1) * BOARD_W if drng.random() < 0.7 else drng.uniform(-0.45, 0.45) * BOARD_W
            dyaw = drng.gauss(0, math.radians(8)) if drng.random() < 0.8 else drng.uniform(-math.pi, math.pi)
            lx = -BOARD_L / 2 + (field - 0.5) * FIELD + max(-0.4 * FIELD, min(0.4 * FIELD, dx))
            w = bmat @ Vector((lx, dy, 0))
            r = (w.x, w.y, side / 2, side / 2, yaw + dyaw)
            if not any(overlap(r, t, 0.0015) for t in taken[1:]):
                taken.append(r)
                break
        ob = die(colour, side, faces_for(top, spec["faces"][colour], spec["opposite"][colour], drng), layout,
                 bodies[colour][0], paints[colour], drng)
        lifted = spec.get("lifted") == colour
        z = thick + side / 2 + (drng.uniform(0.015, 0.025) if lifted else 0)
        tilt = (drng.uniform(-0.15, 0.15), drng.uniform(-0.15, 0.15)) if lifted else (0, 0)
        place(ob, r[0], r[1], z, r[4], tilt)
        dice_obs[colour] = ob
    hand = P.hand(drng, bmat, BOARD_L, M.skin(drng), thick) if spec.get("hand") else False
    bpy.context.view_layer.update()
    inv = bmat.inverted()
    corners = [(-1, 1), (1, 1), (1, -1), (-1, -1)]
    cpx = [px(cam, bmat @ Vector((sx * BOARD_L / 2, sy * BOARD_W / 2, thick))) for sx, sy in corners]
    area = sum(cpx[i][0] * cpx[(i + 1) % 4][1] - cpx[(i + 1) % 4][0] * cpx[i][1] for i in range(4))
    if area < 0:  # clockwise in the frame (y down): field 1's end, along to field 9's end
        cpx = [cpx[3], cpx[2], cpx[1], cpx[0]]
    dice = []
    for colour, ob in dice_obs.items():
        value, top_centre = top_of(ob)
        lx = (inv @ ob.location).x
        field = max(1, min(9, int((lx + BOARD_L / 2) // FIELD) + 1))
        # the die's centre along the board in fields from field 1's end (``field`` is its floor + 1)
        along = round((lx + BOARD_L / 2) / FIELD, 4)
        dice.append({"colour": colour, "value": value, "field": field, "center": px(cam, top_centre), "along": along})
    bv, bc = top_of(black)
    return {"board_corners": cpx, "dice": dice, "black": {"value": bv, "center": px(cam, bc)},
            "still": not (spec.get("hand") or spec.get("lifted")), "hand": bool(hand), "lifted": spec.get("lifted"),
            "stray": [{"value": top_of(o)[0], "center": px(cam, top_of(o)[1])} for o in stray],
            "table": table, "board": board_words, "clutter": clutter,
            "camera": cam_words, "lights": light_words, "die_mm": round(side * 1000, 1)}


def tray_scene(spec, rng, size):
    """A Durchmarsch tray with 5-8 standard dice lying in it, clutter beside; returns the labels."""
    table = table_plane(rng)
    tray = P.tray(rng, box, cut)
    yaw = rng.uniform(0, 2 * math.pi)
    for ob in tray["objects"]:
        ob.rotation_euler.z = yaw
    tm = Matrix.Rotation(yaw, 4, "Z")
    n = spec["count"]
    kinds = [rng.choice(["white", "cream", "red", "black", "translucent", "wood"])]
    if rng.random() < 0.25:
        kinds.append(rng.choice(["white", "cream", "red", "black", "translucent", "wood"]))
    s6 = rng.uniform(0.014, 0.019)
    taken, obs, floor = [], [], tray["floor_z"]
    hw, hh = tray["half"]
    for i in range(n):
        kind = kinds[i % len(kinds)]
        pipc = "black" if kind in ("white", "cream", "wood") else "white"
        value = rng.randint(1, 6)
        ob = die(f"d{i}", s6, faces_for(value, [1, 2, 3, 4, 5, 6], D6_OPPOSITE, rng), spec["d6_pips"],
                 M.die_body(rng, kind)[0], M.pip_paint(rng, pipc), rng)
        r = None
        if taken and rng.random() < 0.3:  # touching another die, edge to edge
            t = rng.choice(taken)
            a = t[4] + rng.choice([0, math.pi / 2, math.pi, 3 * math.pi / 2])
            cand = (t[0] + math.cos(a) * (s6 + 0.0003), t[1] + math.sin(a) * (s6 + 0.0003), s6 / 2, s6 / 2, t[4])
            if tray["fits"](cand[0], cand[1], s6 * 0.75) and not any(overlap(cand, o, -0.0002) for o in taken):
                taken.append(cand)
                r = cand
        if r is None:
            def sampler():
                while True:
                    x, y = rng.uniform(-hw, hw), rng.uniform(-hh, hh)
                    if tray["fits"](x, y, s6 * 0.75):
                        return x, y
            r = free_spot(rng, taken, s6 / 2, s6 / 2, sampler, gap=0.001)
        if r is None:
            bpy.data.objects.remove(ob)
            continue
        w = tm @ Vector((r[0], r[1], 0))
        place(ob, w.x, w.y, floor + s6 / 2, r[4] + yaw)
        obs.append(ob)
    outer = tray["outer"]
    taken_out = [(0, 0, outer[0], outer[1], yaw)]
    clutter = P.clutter(rng, taken_out, box, cut, free_spot, reach=0.3)
    outline = [tm @ Vector((x, y, floor)) for x, y in tray["outline"]]
    quad = [tm @ Vector((x, y, floor)) for x, y in tray["quad"]]
    for i in range(80):
        cam, cam_words = camera(rng, (rng.uniform(-0.02, 0.02), rng.uniform(-0.02, 0.02), 0),
                                rng.uniform(0.40, 0.60) + i * 0.003, size)
        if inside(cam, [tm @ Vector((sx * outer[0], sy * outer[1], 0)) for sx in (-1, 1) for sy in (-1, 1)], 0.02) \
                or (i > 40 and inside(cam, outline, 0.02)) or i == 79:
            break
        bpy.data.objects.remove(cam)
    hand = bool(spec.get("hand")) and P.hand(rng, tm, 0.15, M.skin(rng), floor) is not False
    light_words = lights(rng, (0, 0, 0))
    bpy.context.view_layer.update()
    dice = [{"value": top_of(o)[0], "center": px(cam, top_of(o)[1])} for o in obs]

    def clockwise(pts):
        area = sum(pts[i][0] * pts[(i + 1) % len(pts)][1] - pts[(i + 1) % len(pts)][0] * pts[i][1]
                   for i in range(len(pts)))
        return pts if area > 0 else pts[::-1]
    return {"values": sorted(d["value"] for d in dice), "dice": dice,
            "tray_corners": clockwise([px(cam, p) for p in quad]),
            "tray_outline": clockwise([px(cam, p) for p in outline]), "tray": tray["words"],
            "hand": hand, "table": table, "dice_body": " and ".join(kinds), "clutter": clutter,
            "camera": cam_words, "lights": light_words, "die_mm": round(s6 * 1000, 1)}


def main():
    argv = sys.argv[sys.argv.index("--") + 1:]
    spec_path, out, samples, w, h = argv[0], argv[1], int(argv[2]), int(argv[3]), int(argv[4])
    for spec in json.load(open(spec_path)):
        bpy.ops.wm.read_factory_settings(use_empty=True)
        rng = random.Random(f"{spec['kind']}-{spec.get('setup', spec['seed'])}")
        random.seed(spec["seed"])
        make = fenn_scene if spec["kind"] == "fenn" else tray_scene
        t0 = time.time()
        labels = make(spec, rng, (w, h))
        t1 = time.time()
        render(os.path.join(out, spec["name"] + ".png"), samples)
        labels["seconds"] = {"build": round(t1 - t0, 1), "render": round(time.time() - t1, 1)}
        with open(os.path.join(out, spec["name"] + ".json"), "w") as f:
            json.dump(labels, f)
        print(f"RENDERED {spec['name']}", flush=True)


if __name__ == "__main__":
    main()
