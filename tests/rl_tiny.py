"""A tiny tokenizer and language model built offline, for driving real RL trainers on the CPU.

The tokenizer is byte-level BPE with no merges (one token per byte, so any text round-trips) and
the model a randomly initialised two-layer Llama of a few thousand parameters: nothing is
downloaded from a hub.
"""

from __future__ import annotations

from typing import Any

SPECIALS = ("<|endoftext|>", "<|pad|>")


def tiny_tokenizer() -> Any:
    """A PreTrainedTokenizerFast whose vocabulary is the 256 byte symbols plus two specials."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    alphabet = pre_tokenizers.ByteLevel.alphabet()
    vocab = {symbol: index for index, symbol in enumerate(sorted(alphabet))}
    for special in SPECIALS:
        vocab[special] = len(vocab)
    core = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, eos_token=SPECIALS[0], pad_token=SPECIALS[1])
    tokenizer.chat_template = (
        "{% for message in messages %}{{ message['role'] }}: {{ message['content'] }}\n{% endfor %}"
        "{% if add_generation_prompt %}assistant: {% endif %}")
    return tokenizer


def tiny_model(tokenizer: Any, seed: int = 0) -> Any:
    """A randomly initialised causal LM sized for the tokenizer (float32, CPU)."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=512,
                         pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                         bos_token_id=tokenizer.eos_token_id)
    return LlamaForCausalLM(config)
