"""Props of the photo-realistic family (runs inside Blender, imported by
``blender_scene_bpy.py``): the Fenn board with its field lines and numbers, the
Durchmarsch tray, clutter (cup, cards, coins, phone) and a hand. Units: metres.
"""

from __future__ import annotations

import math

import blender_materials_bpy as M
import bmesh
import bpy
import numpy as np
from mathutils import Matrix, Vector

PX_MM = 8  # texels per millimetre of the board's line image


def _soft(d: np.ndarray, half: float) -> np.ndarray:
    """Coverage (0-1) of a line of half width ``half`` mm at distance ``d`` mm, anti-aliased over one texel."""
    return np.clip((half - d) * PX_MM + 0.5, 0.0, 1.0)


def board_lines(rng, length_mm: float, width_mm: float, colour, stitched: bool) -> np.ndarray:
    """The field lines as an H×W×4 float image (x along the board from field 1's end, row 0 at +y):
    8 dividers between the 9 fields and an outline inset from the edge, printed or stitched (dashes)."""
    w, h = int(length_mm * PX_MM), int(width_mm * PX_MM)
    y, x = (np.mgrid[0:h, 0:w] + 0.5) / PX_MM
    half = rng.uniform(0.3, 0.6) if not stitched else rng.uniform(0.35, 0.5)
    inset = rng.uniform(1.2, 3.0)
    field = length_mm / 9
    dash, gap = rng.uniform(1.8, 3.2), rng.uniform(0.8, 1.6)
    a = np.zeros((h, w))
    # dividers: distance to the nearest k * field, k = 1..8, between the outline's long lines
    k = np.clip(np.round(x / field), 1, 8)
    dx = np.abs(x - k * field)
    span = (y > inset) & (y < width_mm - inset)
    along_div = y
    dists = [(dx, along_div, span)]
    if rng.random() < 0.85:  # the outline
        dy = np.minimum(np.abs(y - inset), np.abs(y - (width_mm - inset)))
        dists.append((dy, x, (x > inset - half) & (x < length_mm - inset + half)))
        de = np.minimum(np.abs(x - inset), np.abs(x - (length_mm - inset)))
        dists.append((de, y, span))
    for d, along, mask in dists:
        if stitched:
            period = dash + gap
            t = (along % period) - dash / 2
            e = (t / (dash / 2)) ** 2 + (d / half) ** 2
            cov = np.clip((1 - e) * 3, 0, 1)
        else:
            cov = _soft(d, half)
        a = np.maximum(a, cov * mask)
    rgba = np.zeros((h, w, 4), np.float32)
    rgba[..., :3] = colour
    rgba[..., 3] = a
    return rgba


def board(rng, length, width, thick, box):
    """The Fenn board: a slab ``length × width × thick`` of leather or light wood with field lines (light or dark,
    stitched or printed) and sometimes numbers; origin at its centre. Returns ``(object, words)``."""
    kind = rng.choices(list(M.LEATHERS) + ["light wood"], [3, 2, 2, 2, 2])[0]
    dark_board = kind in ("dark brown leather", "black leather", "burgundy leather")
    light_lines = rng.random() < (0.8 if dark_board else 0.2)
    colour = M._jitter(rng, rng.choice([(0.8, 0.75, 0.6), (0.75, 0.55, 0.2), (0.85, 0.85, 0.85)]) if light_lines
                       else rng.choice([(0.02, 0.015, 0.01), (0.08, 0.03, 0.01), (0.01, 0.01, 0.01)]))
    stitched = rng.random() < 0.5
    lines = board_lines(rng, length * 1000, width * 1000, colour, stitched)
    mat, kind = M.board_surface(rng, lines, kind)
    ob = box("board", length, width, thick, mat, bevel=min(0.0008, thick / 3), segments=2)
    ob.location = (0, 0, thick / 2)
    numbers = rng.random() < 0.5
    if numbers:
        ink = M.principled("ink", colour, roughness=0.5)
        size = rng.uniform(0.006, 0.011)
        across = rng.choice([0.0, 0.32, -0.32]) * width
        turn = rng.choice([0, math.pi, math.pi / 2, -math.pi / 2])
        for k in range(1, 10):
            cu = bpy.data.curves.new(f"n{k}", "FONT")
            cu.body = str(k)
            cu.size = size
            cu.align_x, cu.align_y = "CENTER", "CENTER"
            t = bpy.data.objects.new(f"n{k}", cu)
            t.data.materials.append(ink)
            bpy.context.scene.collection.objects.link(t)
            t.parent = ob
            t.location = (-length / 2 + (k - 0.5) * length / 9, across, thick / 2 + 0.00005)
            t.rotation_euler = (0, 0, turn)
    words = f"{kind}, {'light' if light_lines else 'dark'} {'stitched' if stitched else 'printed'} lines" + \
        (", numbers" if numbers else "")
    return ob, words


def link(name, bm, mats):
    """A mesh object from a bmesh (freed), smooth-shaded with auto smooth, with ``mats`` as its slots."""
    me = bpy.data.meshes.new(name)
    bm.to_mesh(me)
    bm.free()
    for p in me.polygons:
        p.use_smooth = True
    me.use_auto_smooth = True
    me.auto_smooth_angle = math.radians(35)
    for m in mats:
        me.materials.append(m)
    ob = bpy.data.objects.new(name, me)
    bpy.context.scene.collection.objects.link(ob)
    return ob


def _cylinder(name, radius, depth, mat, segments=48):
    bm = bmesh.new()
    bmesh.ops.create_cone(bm, cap_ends=True, cap_tris=False, segments=segments, radius1=radius, radius2=radius,
                          depth=depth)
    return link(name, bm, [mat])


def clutter(rng, taken, box, cut, free_spot, reach):
    """0-3 things beside the board or tray (a cup, cards, coins, a phone), not over what is in ``taken``."""
    words = []
    for what in rng.sample(["cup", "cards", "coins", "phone"], rng.choice([0, 1, 1, 2, 2, 3])):
        def sampler():
            return rng.uniform(-reach, reach), rng.uniform(-reach * 0.75, reach * 0.75)
        if what == "cup":
            r, h = rng.uniform(0.035, 0.045), rng.uniform(0.075, 0.1)
            spot = free_spot(rng, taken, r + 0.01, r + 0.01, sampler, gap=0.05)
            if not spot:
                continue
            col = rng.choice([(0.8, 0.8, 0.78), (0.05, 0.05, 0.05), (0.4, 0.05, 0.03), (0.05, 0.15, 0.4)])
            ceramic = M.principled("ceramic", col, roughness=0.15, coat=0.5)
            cup = _cylinder("cup", r, h, ceramic)
            cb = bmesh.new()
            bmesh.ops.create_cone(cb, cap_ends=True, segments=48, radius1=r - 0.003, radius2=r - 0.003, depth=h,
                                  matrix=Matrix.Translation((0, 0, 0.006)))
            cut(cup, cb, ceramic)
            cup.location = (spot[0], spot[1], h / 2)
            if rng.random() < 0.6:
                coffee = _cylinder("coffee", r - 0.003, 0.002, M.principled("coffee", (0.03, 0.012, 0.005), 0.05))
                coffee.location = (spot[0], spot[1], h * rng.uniform(0.6, 0.85))
        elif what == "cards":
            spot = free_spot(rng, taken, 0.05, 0.05, sampler, gap=0.02)
            if not spot:
                continue
            back = M.principled("card back", rng.choice([(0.5, 0.03, 0.03), (0.03, 0.08, 0.4), (0.8, 0.8, 0.8)]), 0.35)
            for i in range(rng.randint(1, 4)):
                c = box(f"card{i}", 0.063, 0.088, 0.0003, back, bevel=0.0001, segments=1)
                c.location = (spot[0] + rng.uniform(-0.01, 0.01), spot[1] + rng.uniform(-0.01, 0.01), 0.00015 + i * 0.0004)
                c.rotation_euler.z = spot[4] + rng.uniform(-0.3, 0.3)
        elif what == "coins":
            spot = free_spot(rng, taken, 0.03, 0.03, sampler, gap=0.01)
            if not spot:
                continue
            metal = M.principled("metal", rng.choice([(0.8, 0.6, 0.3), (0.75, 0.75, 0.75), (0.7, 0.35, 0.2)]), 0.3, 1.0)
            for i in range(rng.randint(2, 6)):
                r, t = rng.uniform(0.008, 0.0135), rng.uniform(0.0015, 0.0022)
                c = _cylinder(f"coin{i}", r, t, metal)
                c.location = (spot[0] + rng.uniform(-0.02, 0.02), spot[1] + rng.uniform(-0.02, 0.02), t / 2 + i * 0.0001)
        else:
            spot = free_spot(rng, taken, 0.08, 0.08, sampler, gap=0.02)
            if not spot:
                continue
            body = M.principled("phone", rng.choice([(0.02, 0.02, 0.02), (0.6, 0.6, 0.62), (0.2, 0.22, 0.3)]), 0.3, 0.6)
            p = box("phone", 0.072, 0.15, 0.008, body, bevel=0.003, segments=3)
            p.location, p.rotation_euler.z = (spot[0], spot[1], 0.004), spot[4]
            s = box("screen", 0.066, 0.142, 0.0004, M.principled("glass", (0.005, 0.005, 0.008), 0.05), bevel=0.0001)
            s.location, s.rotation_euler.z = (spot[0], spot[1], 0.0081), spot[4]
        words.append(what)
    return words


def hand(rng, frame, length, skin, z0):
    """A simple hand (palm, four fingers, thumb, forearm) 4-10 cm over the board or tray at ``frame`` (4×4),
    the arm leaving the view. Returns True."""
    bm = bmesh.new()

    def blob(centre, scale):
        m = Matrix.Translation(centre) @ Matrix.Diagonal((*scale, 1.0))
        bmesh.ops.create_uvsphere(bm, u_segments=24, v_segments=16, radius=1.0, matrix=m)
    blob((0, 0, 0), (0.045, 0.05, 0.016))
    for i, fx in enumerate((-0.03, -0.01, 0.01, 0.03)):
        reach = (0.04, 0.045, 0.043, 0.035)[i]
        blob((fx, 0.045 + reach * 0.85, -0.004 - 0.002 * (i % 3)), (0.0085, reach, 0.008))
    blob((0.05, 0.02, -0.005), (0.01, 0.035, 0.009))
    bmesh.ops.create_cone(bm, cap_ends=True, segments=24, radius1=0.03, radius2=0.035, depth=0.4,
                          matrix=Matrix.Translation((0, -0.22, 0.03)) @ Matrix.Rotation(math.pi / 2 - 0.15, 4, "X"))
    ob = link("hand", bm, [skin])
    local = Vector((rng.uniform(-length / 2, length / 2), rng.uniform(-0.02, 0.02), z0 + rng.uniform(0.04, 0.1)))
    ob.matrix_world = frame @ Matrix.Translation(local) @ Matrix.Rotation(
        rng.choice([0, math.pi]) + rng.uniform(-0.6, 0.6), 4, "Z")
    return True


def tray(rng, box, cut):
    """A Durchmarsch tray (rectangular or round) with felt inside and a rim; centred on the origin.
    Returns a dict: objects, floor_z (felt top, m), half (x, y sampling extents), fits(x, y, r),
    outer (half extents), outline (local (x, y) of the inner floor's edge), quad (4 corners), words."""
    felt, felt_words = M.felt(rng)
    rim_kind = rng.choice(["wood", "black", "brown"])
    rim = M.wood(rng, scale=2.0)[0] if rim_kind == "wood" else M.principled(
        "rim", (0.02, 0.02, 0.02) if rim_kind == "black" else (0.08, 0.035, 0.015), rng.uniform(0.3, 0.6))
    t, hr, base = rng.uniform(0.008, 0.015), rng.uniform(0.02, 0.04), 0.006
    floor_z = base + 0.002
    if rng.random() < 0.6:
        iw, ih = rng.uniform(0.2, 0.28), rng.uniform(0.15, 0.2)
        ob = box("rim", iw + 2 * t, ih + 2 * t, hr, rim, bevel=0.002, segments=3)
        cb = bmesh.new()
        bmesh.ops.create_cube(cb, size=1.0)
        for v in cb.verts:
            v.co = Vector((v.co.x * iw, v.co.y * ih, v.co.z * hr + base))
        cut(ob, cb, rim)
        f = box("felt", iw, ih, 0.002, felt)
        quad = [(-iw / 2, -ih / 2), (iw / 2, -ih / 2), (iw / 2, ih / 2), (-iw / 2, ih / 2)]
        out = {"half": (iw / 2, ih / 2), "outer": (iw / 2 + t, ih / 2 + t), "outline": quad, "quad": quad,
               "fits": lambda x, y, r: abs(x) <= iw / 2 - r and abs(y) <= ih / 2 - r,
               "words": f"rectangular tray {round(iw * 100)}x{round(ih * 100)} cm, {felt_words}, {rim_kind} rim"}
    else:
        ri = rng.uniform(0.10, 0.14)
        ob = _cylinder("rim", ri + t, hr, rim, segments=96)
        cb = bmesh.new()
        bmesh.ops.create_cone(cb, cap_ends=True, segments=96, radius1=ri, radius2=ri, depth=hr,
                              matrix=Matrix.Translation((0, 0, base)))
        cut(ob, cb, rim)
        f = _cylinder("felt", ri, 0.002, felt, segments=96)
        outline = [(ri * math.cos(a), ri * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 24, endpoint=False)]
        out = {"half": (ri, ri), "outer": (ri + t, ri + t), "outline": outline,
               "quad": [(-ri, -ri), (ri, -ri), (ri, ri), (-ri, ri)],
               "fits": lambda x, y, r: math.hypot(x, y) <= ri - r,
               "words": f"round tray {round(2 * ri * 100)} cm, {felt_words}, {rim_kind} rim"}
    ob.location = (0, 0, hr / 2)
    f.location = (0, 0, base + 0.001)
    out.update(objects=[ob, f], floor_z=floor_z)
    return out
