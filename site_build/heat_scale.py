"""The colour scale of every attention heatmap of the site, defined once.

A weight ``w`` in [0, 1] is ``hsl(hue saturation% L%)``, ``L = zero + (one - zero) *
sqrt(w)`` (the root spreads the many small weights apart): in the figures by
:meth:`HeatScale.rgb`, in the widgets from the custom properties :func:`css` writes.

Examples
--------
>>> HEAT["light"].rgb([0.0, 1.0]).tolist(), HEAT["dark"].rgb(0.0).tolist()
([[244, 245, 251], [32, 41, 91]], [25, 31, 62])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray


@dataclass(frozen=True)
class HeatScale:
    """``hue`` in degrees; ``saturation`` and the lightness of weights 0 and 1 in percent."""

    hue: float
    saturation: float
    zero: float
    one: float

    def __post_init__(self) -> None:
        for name in ("saturation", "zero", "one"):
            value = getattr(self, name)
            if not 0 <= value <= 100:
                raise ValueError(f"HeatScale.{name} must be a percentage in [0, 100], got {value}")
        if not 0 <= self.hue < 360:
            raise ValueError(f"HeatScale.hue must be in [0, 360) degrees, got {self.hue}")

    def lightness(self, weights: ArrayLike) -> NDArray[np.float64]:
        """Lightness in percent of each weight (clipped to [0, 1]), same shape.

        Examples
        --------
        >>> HEAT["light"].lightness([0.0, 0.25, 1.0]).tolist()
        [97.0, 60.5, 24.0]
        """
        w = np.clip(np.asarray(weights, dtype=np.float64), 0.0, 1.0)
        out: NDArray[np.float64] = self.zero + (self.one - self.zero) * np.sqrt(w)
        return out

    def rgb(self, weights: ArrayLike) -> NDArray[np.uint8]:
        """sRGB of each weight, as CSS converts ``hsl()``: shape ``(*weights.shape, 3)``."""
        light = self.lightness(weights) / 100  # (...)
        s = self.saturation / 100
        a = s * np.minimum(light, 1 - light)  # (...)
        channels = []
        for n in (0, 8, 4):  # red, green, blue (CSS Color 4, "HSL to RGB")
            k = (n + self.hue / 30) % 12
            channels.append(light - a * np.clip(np.minimum(k - 3, 9 - k), -1, 1))
        rgb: NDArray[np.uint8] = np.rint(np.stack(channels, axis=-1) * 255).astype(np.uint8)
        return rgb


#: The scale of Material's ``default`` (light) and ``slate`` (dark) schemes.
HEAT: Mapping[str, HeatScale] = {
    "light": HeatScale(hue=231, saturation=48, zero=97, one=24),
    "dark": HeatScale(hue=231, saturation=42, zero=17, one=82),
}

#: The element that carries each palette's colour scheme.
SCHEMES: Mapping[str, str] = {
    "light": ':root, [data-md-color-scheme="default"]',
    "dark": '[data-md-color-scheme="slate"]',
}


def css(scales: Mapping[str, HeatScale] = HEAT) -> str:
    """The scales as CSS custom properties, one rule per palette.

    Examples
    --------
    >>> print(css({"light": HeatScale(231, 48, 97, 24)}))
    :root, [data-md-color-scheme="default"] {
      --heat-hue: 231;
      --heat-sat: 48%;
      --heat-zero: 97%;
      --heat-one: 24%;
    }
    <BLANKLINE>
    """
    rules = []
    for palette, scale in scales.items():
        if palette not in SCHEMES:
            known = ", ".join(SCHEMES)
            raise ValueError(f"heat scale: unknown palette {palette!r} (known: {known})")
        values = (scale.hue, scale.saturation, scale.zero, scale.one)
        units = zip(("hue", "sat", "zero", "one"), values, ("", "%", "%", "%"), strict=True)
        lines = "".join(f"  --heat-{name}: {value:g}{unit};\n" for name, value, unit in units)
        rules.append(f"{SCHEMES[palette]} {{\n{lines}}}\n")
    return "".join(rules)
