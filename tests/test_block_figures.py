"""Lesson 3's figure computations (site_build/model_figures.py): values by hand, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_ref.minilm import load_minilm
from site_build import model_figures as B


def test_activations_by_hand() -> None:
    a = B.activations(-1.0, 1.0, 3)
    assert a.x.tolist() == [-1.0, 0.0, 1.0] and a.relu.tolist() == [0.0, 0.0, 1.0]
    phi_1 = 0.5 * math.erfc(-1 / math.sqrt(2))  # Phi(1)
    np.testing.assert_allclose(a.gelu, [-(1 - phi_1), 0.0, phi_1], atol=1e-15)
    assert a.gelu_min < 0 and -1.0 <= a.gelu_argmin <= 0.0


@pytest.mark.parametrize(
    ("args", "message"),
    [((1.0, 1.0, 5), "x_min < x_max"), ((0.0, 1.0, 1), "at least 2 points")],
)
def test_activations_name_bad_input(args: tuple[float, float, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        B.activations(*args)


def test_token_path_names_bad_input() -> None:
    installed = load_minilm().weights_sha256
    with pytest.raises(ValueError, match="'zebra' is not in the sentence's tokens"):
        B.token_path("it was too tired.", "zebra", installed)
    with pytest.raises(ValueError, match=r"hash to [0-9a-f]{64}, not 0000"):
        B.token_path("it was too tired.", "it", "0" * 64)


def test_token_path_cosines_start_at_one() -> None:
    path = B.token_path("it was too tired.", "it", load_minilm().weights_sha256)
    assert path.tokens[path.token] == "it" and path.norms.shape == path.cosines.shape == (7, 7)
    np.testing.assert_allclose(path.cosines[0], 1.0, atol=1e-12)
    assert (path.cosines <= 1 + 1e-12).all()
