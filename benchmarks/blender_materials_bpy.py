"""Materials of the photo-realistic family (runs inside Blender, imported by
``blender_scene_bpy.py``): tables, board leather and wood, dice bodies, pip
paint, felt, skin, clutter. Procedural (noise/wave/brick nodes) or small NumPy
images made here; no file is read. Every function takes a ``random.Random``
and returns ``(material, words)``, ``words`` a short description for the labels.
"""

from __future__ import annotations

import math

import bpy
import numpy as np


def kelvin_rgb(kelvin: float) -> tuple[float, float, float]:
    """Linear RGB (0-1) of a black body at ``kelvin`` (Tanner Helland's fit of the CIE tables, sRGB-decoded)."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.12 if t <= 66 else 288.1 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5 * math.log(t - 10) - 305.0)
    srgb = [min(max(c / 255.0, 0.0), 1.0) for c in (r, g, b)]
    return tuple(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb)


def _new(name: str):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes = mat.node_tree.nodes
    bsdf = nodes["Principled BSDF"]
    return mat, nodes, mat.node_tree.links, bsdf


def _coords(nodes, links, scale=(1.0, 1.0, 1.0), rot=0.0, kind="Object", offset=(0.0, 0.0, 0.0)):
    tc = nodes.new("ShaderNodeTexCoord")
    mp = nodes.new("ShaderNodeMapping")
    mp.inputs["Scale"].default_value = scale
    mp.inputs["Rotation"].default_value = (0.0, 0.0, rot)
    mp.inputs["Location"].default_value = offset
    links.new(tc.outputs[kind], mp.inputs["Vector"])
    return mp.outputs["Vector"]


def _bump(nodes, links, bsdf, height_socket, strength: float, distance: float = 0.001):
    bump = nodes.new("ShaderNodeBump")
    bump.inputs["Strength"].default_value = strength
    bump.inputs["Distance"].default_value = distance
    links.new(height_socket, bump.inputs["Height"])
    links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])


def _ramp(nodes, links, fac_socket, colours):
    ramp = nodes.new("ShaderNodeValToRGB")
    els = ramp.color_ramp.elements
    for i, (pos, col) in enumerate(colours):
        el = els[i] if i < len(els) else els.new(pos)
        el.position = pos
        el.color = (*col, 1.0)
    links.new(fac_socket, ramp.inputs["Fac"])
    return ramp.outputs["Color"]


def _jitter(rng, col, amount=0.15):
    return tuple(min(1.0, max(0.0, c * (1 + rng.uniform(-amount, amount)))) for c in col)


WOODS = {  # linear RGB: (light, dark)
    "light wood": ((0.62, 0.42, 0.22), (0.40, 0.24, 0.10)),
    "oak": ((0.50, 0.32, 0.15), (0.30, 0.17, 0.07)),
    "beech": ((0.70, 0.45, 0.28), (0.50, 0.30, 0.16)),
    "walnut": ((0.20, 0.11, 0.05), (0.09, 0.045, 0.02)),
    "dark wood": ((0.12, 0.06, 0.03), (0.05, 0.025, 0.012)),
    "pine": ((0.72, 0.52, 0.28), (0.52, 0.32, 0.14)),
}


def wood_colour(rng, name: str | None = None, names=tuple(WOODS)):
    """A wood's name and its (light, dark) colours, jittered."""
    name = name or rng.choice(names)
    light, dark = (_grey(c, 0.2) for c in WOODS[name])
    return name, _jitter(rng, light, 0.1), _jitter(rng, dark, 0.1)


def _grey(col, amount):
    """``col`` moved ``amount`` of the way towards its own grey (less saturated)."""
    g = sum(col) / 3
    return tuple(c + (g - c) * amount for c in col)


def _bands(nodes, links, vec, scale: float, distortion: float, detail_scale: float | None = None):
    """A wave texture of bands along x (a wood's grain) at ``vec``, distorted."""
    wave = nodes.new("ShaderNodeTexWave")
    wave.wave_type = "BANDS"
    wave.bands_direction = "Y"
    wave.inputs["Scale"].default_value = scale
    wave.inputs["Distortion"].default_value = distortion
    wave.inputs["Detail"].default_value = 3.0
    if detail_scale is not None:
        wave.inputs["Detail Scale"].default_value = detail_scale
    links.new(vec, wave.inputs["Vector"])
    return wave


def wood(rng, name: str | None = None, scale: float = 1.0, names=tuple(WOODS), gloss: float | None = None):
    """Wood with grain along x (wave bands distorted by noise). ``scale`` 1 = table size; larger for dice."""
    wname, light, dark = wood_colour(rng, name, names)
    mat, nodes, links, bsdf = _new("wood")
    vec = _coords(nodes, links, scale=(1.0 * scale, rng.uniform(8, 16) * scale, scale * 4),
                  rot=rng.uniform(-0.03, 0.03), offset=(rng.uniform(0, 50), rng.uniform(0, 50), 0))
    wave = _bands(nodes, links, vec, rng.uniform(1.5, 4.0), rng.uniform(4, 10), rng.uniform(0.5, 2.0))
    noise = nodes.new("ShaderNodeTexNoise")
    noise.inputs["Scale"].default_value = rng.uniform(20, 60)
    noise.inputs["Detail"].default_value = 8.0
    links.new(vec, noise.inputs["Vector"])
    mix = nodes.new("ShaderNodeMath")
    mix.operation = "MULTIPLY_ADD"
    links.new(wave.outputs["Fac"], mix.inputs[0])
    mix.inputs[1].default_value = 0.75
    links.new(noise.outputs["Fac"], mix.inputs[2])
    col = _ramp(nodes, links, mix.outputs[0], [(0.25, light), (0.95, dark)])
    links.new(col, bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = gloss if gloss is not None else rng.uniform(0.35, 0.7)
    _bump(nodes, links, bsdf, wave.outputs["Fac"], 0.05)
    return mat, wname


def planks(rng):
    """Wooden planks: a brick texture (long rows, thin dark gaps) times a wood grain."""
    wname, light, dark = wood_colour(rng)
    mat, nodes, links, bsdf = _new("planks")
    vec = _coords(nodes, links, rot=rng.uniform(0, math.pi))
    brick = nodes.new("ShaderNodeTexBrick")
    brick.inputs["Scale"].default_value = 1.0
    brick.inputs["Brick Width"].default_value = rng.uniform(0.6, 1.4)
    brick.inputs["Row Height"].default_value = rng.uniform(0.07, 0.16)
    brick.inputs["Mortar Size"].default_value = rng.uniform(0.0008, 0.0025)
    brick.inputs["Mortar Smooth"].default_value = 0.3
    brick.inputs["Bias"].default_value = 0.0
    brick.offset = rng.uniform(0.3, 0.7)
    brick.inputs["Color1"].default_value = (*light, 1)
    brick.inputs["Color2"].default_value = (*_jitter(rng, light, 0.35), 1)
    brick.inputs["Mortar"].default_value = (*[c * 0.15 for c in dark], 1)
    links.new(vec, brick.inputs["Vector"])
    grain_vec = _coords(nodes, links, scale=(1.0, 12.0, 4.0))
    links.new(vec, grain_vec.node.inputs["Vector"])
    wave = _bands(nodes, links, grain_vec, rng.uniform(2, 4), rng.uniform(5, 10))
    grain = _ramp(nodes, links, wave.outputs["Fac"], [(0.2, (1, 1, 1)), (1.0, tuple(d / max(light) for d in dark))])
    mult = nodes.new("ShaderNodeMixRGB")
    mult.blend_type = "MULTIPLY"
    mult.inputs["Fac"].default_value = 0.8
    links.new(brick.outputs["Color"], mult.inputs[1])
    links.new(grain, mult.inputs[2])
    links.new(mult.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = rng.uniform(0.4, 0.75)
    _bump(nodes, links, bsdf, brick.outputs["Fac"], 0.3)
    return mat, f"{wname} planks"


def image_material(name: str, rgb: np.ndarray, repeat: tuple[float, float], rng, roughness=0.9, sheen=0.0, bump=0.0):
    """A material from an H×W×3 float array (linear RGB) tiled ``repeat`` times per metre on object x, y."""
    h, w = rgb.shape[:2]
    img = bpy.data.images.new(name, w, h, alpha=False, float_buffer=True)
    rgba = np.ones((h, w, 4), np.float32)
    rgba[..., :3] = rgb[::-1]
    img.pixels.foreach_set(rgba.ravel())
    img.pack()
    mat, nodes, links, bsdf = _new(name)
    vec = _coords(nodes, links, scale=(repeat[0], repeat[1], 1.0), rot=rng.uniform(0, math.pi))
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = img
    tex.image.colorspace_settings.name = "Non-Color"
    tex.interpolation = "Cubic"
    links.new(vec, tex.inputs["Vector"])
    links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Sheen"].default_value = sheen
    noise = nodes.new("ShaderNodeTexNoise")
    noise.inputs["Scale"].default_value = 3000.0
    links.new(noise.outputs["Fac"], _bump_in(nodes, links, bsdf, bump or 0.15))
    return mat


def _bump_in(nodes, links, bsdf, strength):
    bump = nodes.new("ShaderNodeBump")
    bump.inputs["Strength"].default_value = strength
    links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
    return bump.inputs["Height"]


CLOTH = [(0.6, 0.04, 0.03), (0.03, 0.12, 0.45), (0.04, 0.25, 0.06), (0.02, 0.02, 0.02), (0.45, 0.30, 0.02),
         (0.25, 0.05, 0.25), (0.05, 0.25, 0.3)]


def cloth(rng):
    """A checked (gingham or plain checks) or striped cloth as a tiled image; woven bump."""
    base = (0.85, 0.83, 0.78) if rng.random() < 0.7 else _jitter(rng, (0.6, 0.55, 0.45))
    col = np.array(_jitter(rng, rng.choice(CLOTH)), np.float32)
    n = 256
    y, x = np.mgrid[0:n, 0:n] / n
    kind = rng.choice(["gingham", "checks", "stripes"])
    if kind == "stripes":
        bands = (x * rng.choice([2, 3, 4])) % 1 < rng.uniform(0.3, 0.6)
        fine = (x * 16) % 1 < 0.15
        a = np.where(bands, 1.0, np.where(fine, 0.4, 0.0))
    elif kind == "gingham":
        a = 0.5 * ((x * 2) % 1 < 0.5) + 0.5 * ((y * 2) % 1 < 0.5)
    else:
        a = (((x * 2) % 1 < 0.5) ^ ((y * 2) % 1 < 0.5)).astype(float)
    rgb = np.array(base, np.float32) * (1 - a[..., None]) + col * a[..., None]
    weave = 0.92 + 0.08 * ((np.mgrid[0:n, 0:n][0] + np.mgrid[0:n, 0:n][1]) % 2)
    rgb = rgb * weave[..., None]
    cells = rng.uniform(4, 12)  # pattern repeats per metre (a check 4-12 cm)
    name = f"{kind} cloth"
    return image_material(name, rgb.astype(np.float32), (cells, cells), rng, roughness=0.95, sheen=0.4, bump=0.4), name


FELTS = {"green felt": (0.02, 0.20, 0.05), "blue felt": (0.02, 0.05, 0.30), "red felt": (0.40, 0.02, 0.02),
         "black felt": (0.015, 0.015, 0.015), "burgundy felt": (0.18, 0.01, 0.03), "grey felt": (0.12, 0.12, 0.12),
         "beige felt": (0.45, 0.38, 0.25), "teal felt": (0.02, 0.18, 0.18)}


def felt(rng, name: str | None = None):
    """Felt of one colour: fine noise in colour and a fuzzy bump, fully rough, some sheen."""
    name = name or rng.choice(list(FELTS))
    base = _jitter(rng, FELTS[name])
    mat, nodes, links, bsdf = _new(name)
    noise = nodes.new("ShaderNodeTexNoise")
    noise.inputs["Scale"].default_value = rng.uniform(150, 400)
    noise.inputs["Detail"].default_value = 10
    col = _ramp(nodes, links, noise.outputs["Fac"], [(0.3, tuple(c * 0.8 for c in base)), (0.7, base)])
    links.new(col, bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = 1.0
    bsdf.inputs["Sheen"].default_value = 0.6
    _bump(nodes, links, bsdf, noise.outputs["Fac"], 0.25)
    return mat, name


def plain(rng):
    """A plain white or grey surface (laminate, painted), slight variation."""
    name, base = rng.choice([("white", (0.75, 0.75, 0.73)), ("grey", (0.3, 0.3, 0.3)), ("light grey", (0.5, 0.5, 0.48)),
                             ("dark grey", (0.08, 0.08, 0.085)), ("cream", (0.7, 0.62, 0.48))])
    mat, nodes, links, bsdf = _new(name)
    noise = nodes.new("ShaderNodeTexNoise")
    noise.inputs["Scale"].default_value = 40
    col = _ramp(nodes, links, noise.outputs["Fac"], [(0.3, tuple(c * 0.95 for c in base)), (0.7, base)])
    links.new(col, bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = rng.uniform(0.3, 0.7)
    return mat, f"plain {name}"


def table(rng):
    """One of the table surfaces the issue lists: wood, planks, cloth, felt, plain."""
    kind = rng.choices(["wood", "planks", "cloth", "felt", "plain"], [3, 2, 2, 2, 1])[0]
    if kind == "wood":
        mat, name = wood(rng)
        return mat, f"{name} grain"
    return {"planks": planks, "cloth": cloth, "felt": felt, "plain": plain}[kind](rng)


def principled(name, colour, roughness=0.5, metallic=0.0, transmission=0.0, subsurface=0.0, ior=1.45, coat=0.0):
    """A plain principled material."""
    mat, nodes, links, bsdf = _new(name)
    bsdf.inputs["Base Color"].default_value = (*colour, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Metallic"].default_value = metallic
    bsdf.inputs["Transmission"].default_value = transmission
    bsdf.inputs["IOR"].default_value = ior
    bsdf.inputs["Clearcoat"].default_value = coat
    if subsurface:
        bsdf.inputs["Subsurface"].default_value = subsurface
        bsdf.inputs["Subsurface Color"].default_value = (*colour, 1.0)
        bsdf.inputs["Subsurface Radius"].default_value = (0.004, 0.002, 0.001)
    mat.diffuse_color = (*colour, 1.0)
    return mat


LEATHERS = {"dark brown leather": (0.07, 0.035, 0.015), "tan leather": (0.35, 0.17, 0.06),
            "black leather": (0.012, 0.011, 0.01), "burgundy leather": (0.16, 0.015, 0.025)}


def board_surface(rng, lines_rgba: np.ndarray, board_kind: str):
    """The board's material: leather (grain bump) or light wood, with the field lines image
    (H×W×4 float, alpha = line) mixed on top through the board's generated coordinates."""
    h, w = lines_rgba.shape[:2]
    img = bpy.data.images.new("lines", w, h, alpha=True, float_buffer=True)
    img.pixels.foreach_set(lines_rgba[::-1].astype(np.float32).ravel())
    img.pack()
    if board_kind in LEATHERS:
        mat, nodes, links, bsdf = _new(board_kind)
        base = _jitter(rng, LEATHERS[board_kind])
        noise = nodes.new("ShaderNodeTexNoise")
        noise.inputs["Scale"].default_value = rng.uniform(600, 1200)
        noise.inputs["Detail"].default_value = 6
        vor = nodes.new("ShaderNodeTexVoronoi")
        vor.inputs["Scale"].default_value = rng.uniform(1500, 2500)
        base_col = _ramp(nodes, links, noise.outputs["Fac"], [(0.35, tuple(c * 0.75 for c in base)), (0.65, base)])
        height = vor.outputs["Distance"]
        rough = rng.uniform(0.35, 0.65)
        bump_strength = 0.25
    else:
        mat, board_kind = wood(rng, names=("light wood", "beech", "pine"), scale=3.0)
        nodes, links = mat.node_tree.nodes, mat.node_tree.links
        bsdf = nodes["Principled BSDF"]
        base_col = bsdf.inputs["Base Color"].links[0].from_socket
        height, rough, bump_strength = None, 0.45, 0.0
    tc = nodes.new("ShaderNodeTexCoord")
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = img
    tex.extension = "EXTEND"
    links.new(tc.outputs["Generated"], tex.inputs["Vector"])
    mix = nodes.new("ShaderNodeMixRGB")
    links.new(tex.outputs["Alpha"], mix.inputs["Fac"])
    links.new(base_col, mix.inputs[1])
    links.new(tex.outputs["Color"], mix.inputs[2])
    links.new(mix.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = rough
    add = nodes.new("ShaderNodeMath")
    add.operation = "MULTIPLY_ADD"
    links.new(tex.outputs["Alpha"], add.inputs[0])
    add.inputs[1].default_value = 0.6
    if height is not None:
        mul = nodes.new("ShaderNodeMath")
        mul.operation = "MULTIPLY"
        links.new(height, mul.inputs[0])
        mul.inputs[1].default_value = bump_strength
        links.new(mul.outputs[0], add.inputs[2])
    else:
        add.inputs[2].default_value = 0.0
    _bump(nodes, links, bsdf, add.outputs[0], 0.4, 0.0003)
    return mat, board_kind


def die_body(rng, kind: str):
    """A die body material: "wood" (Miwin's dice) or a d6 body: white, cream, red, black, translucent, wood."""
    if kind == "wood":
        mat, name = wood(rng, names=("light wood", "beech", "pine", "oak"), scale=6.0, gloss=rng.uniform(0.3, 0.5))
        return mat, name
    if kind == "translucent":
        col = rng.choice([(0.05, 0.3, 0.08), (0.05, 0.1, 0.5), (0.5, 0.05, 0.05), (0.5, 0.3, 0.02), (0.3, 0.3, 0.35)])
        return principled("translucent", col, roughness=0.15, transmission=0.7, ior=1.5), "translucent"
    col = {"white": (0.8, 0.8, 0.78), "cream": (0.75, 0.65, 0.45), "red": (0.5, 0.02, 0.02),
           "black": (0.02, 0.02, 0.02)}[kind]
    return principled(kind, _jitter(rng, col, 0.05), roughness=rng.uniform(0.2, 0.45), coat=0.3), kind


PIP_PAINT = {"blue": (0.01, 0.04, 0.45), "red": (0.5, 0.01, 0.01), "black": (0.01, 0.01, 0.01),
             "white": (0.8, 0.8, 0.8)}


def pip_paint(rng, colour: str):
    """The paint in the pip hollows."""
    return principled(f"pip {colour}", _jitter(rng, PIP_PAINT[colour], 0.1), roughness=0.5)


SKINS = [(0.55, 0.33, 0.22), (0.45, 0.26, 0.16), (0.25, 0.13, 0.07), (0.12, 0.06, 0.035), (0.6, 0.40, 0.30)]


def skin(rng):
    """Skin: subsurface scattering on a skin tone."""
    return principled("skin", _jitter(rng, rng.choice(SKINS), 0.08), roughness=0.45, subsurface=0.1)
