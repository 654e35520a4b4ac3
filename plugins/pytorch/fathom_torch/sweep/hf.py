"""Hugging Face transformers built from small configs (random weights; never from_pretrained).

Every family a user is likely to bring: encoders with a masked-LM head, causal LMs, seq2seq,
vision and audio. Two layers, hidden size 64, vocabulary 512, 64 positions: big enough to hold
every op of the family, small enough that the sweep's dumps stay small.
"""
from .spec import InputSpec, ModelSpec

VOCAB, HIDDEN, LAYERS, HEADS, FFN, POSITIONS = 512, 64, 2, 2, 128, 64
BATCH, SEQ = 2, 16
NO_DROPOUT = dict(hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)


def _ids():
    return InputSpec((BATCH, SEQ), "int64", VOCAB, seq_dim=1)


def _model(cls_name, config_name, names, constant_kwargs=None, causal=False, **config):
    """A builder: transformers.<config_name>(**config) -> <cls_name>, called with the sweep's
    positional inputs as the keyword arguments `names` (and `constant_kwargs`)."""
    def build():
        import torch
        import transformers
        torch.manual_seed(0)
        cfg = getattr(transformers, config_name)(**config)
        model = getattr(transformers, cls_name)(cfg)

        class Call(torch.nn.Module):
            def __init__(self, inner):
                super().__init__()
                self.inner = inner

            def forward(self, *args):
                kwargs = dict(zip(names, args), **(constant_kwargs or {}))
                if causal:
                    # An all-ones mask, as a user's batch without padding has: without one,
                    # transformers looks for packed sequences with a data-dependent branch that
                    # it skips only under the tracers it knows (not AOT autograd's fake tensors).
                    kwargs["attention_mask"] = torch.ones_like(args[0])
                return self.inner(**kwargs)

        return Call(model)
    return build


def _lm(name, cls_name, config_name, causal=False, **config):
    kwargs = {"use_cache": False} if causal else None
    return ModelSpec(name, _model(cls_name, config_name, ("input_ids",), kwargs, causal, **config), (_ids(),),
                     seq_range=(2, POSITIONS))


def models():
    common = dict(vocab_size=VOCAB, hidden_size=HIDDEN, num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                  intermediate_size=FFN, max_position_embeddings=POSITIONS)
    llama_like = dict(common, num_key_value_heads=1, tie_word_embeddings=False)
    seq2seq_ids = (_ids(), InputSpec((BATCH, 8), "int64", VOCAB, seq_dim=1))
    specs = [
        _lm("bert", "BertForMaskedLM", "BertConfig", **common, **NO_DROPOUT),
        _lm("roberta", "RobertaForMaskedLM", "RobertaConfig", **dict(common, max_position_embeddings=POSITIONS + 2),
            **NO_DROPOUT),
        _lm("distilbert", "DistilBertForMaskedLM", "DistilBertConfig", vocab_size=VOCAB, dim=HIDDEN, n_layers=LAYERS,
            n_heads=HEADS, hidden_dim=FFN, max_position_embeddings=POSITIONS, dropout=0.0, attention_dropout=0.0),
        _lm("albert", "AlbertForMaskedLM", "AlbertConfig", embedding_size=32, **common, hidden_dropout_prob=0.0,
            attention_probs_dropout_prob=0.0, classifier_dropout_prob=0.0),
        _lm("electra", "ElectraForPreTraining", "ElectraConfig", embedding_size=32, **common, **NO_DROPOUT),
        _lm("gpt2", "GPT2LMHeadModel", "GPT2Config", True, vocab_size=VOCAB, n_embd=HIDDEN, n_layer=LAYERS,
            n_head=HEADS, n_positions=POSITIONS, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
            bos_token_id=0, eos_token_id=0),
        _lm("gpt_neo", "GPTNeoForCausalLM", "GPTNeoConfig", True, vocab_size=VOCAB, hidden_size=HIDDEN,
            num_layers=LAYERS, num_heads=HEADS, attention_types=[[["global", "local"], 1]], window_size=8,
            max_position_embeddings=POSITIONS, intermediate_size=FFN, embed_dropout=0.0, attention_dropout=0.0,
            resid_dropout=0.0, bos_token_id=0, eos_token_id=0),
        _lm("opt", "OPTForCausalLM", "OPTConfig", True, vocab_size=VOCAB, hidden_size=HIDDEN, num_hidden_layers=LAYERS,
            num_attention_heads=HEADS, ffn_dim=FFN, max_position_embeddings=POSITIONS, word_embed_proj_dim=HIDDEN,
            dropout=0.0, attention_dropout=0.0),
        _lm("llama", "LlamaForCausalLM", "LlamaConfig", True, **llama_like),
        _lm("mistral", "MistralForCausalLM", "MistralConfig", True, **llama_like, sliding_window=None),
        _lm("qwen2", "Qwen2ForCausalLM", "Qwen2Config", True, **llama_like),
        _lm("phi", "PhiForCausalLM", "PhiConfig", True, **common, resid_pdrop=0.0, embd_pdrop=0.0,
            attention_dropout=0.0),
        ModelSpec("t5", _model("T5ForConditionalGeneration", "T5Config", ("input_ids", "decoder_input_ids"),
                               {"use_cache": False}, vocab_size=VOCAB, d_model=HIDDEN, d_kv=32, d_ff=FFN,
                               num_layers=LAYERS, num_heads=HEADS, dropout_rate=0.0),
                  seq2seq_ids, seq_range=(2, POSITIONS)),
        ModelSpec("bart", _model("BartForConditionalGeneration", "BartConfig", ("input_ids", "decoder_input_ids"),
                                 {"use_cache": False}, vocab_size=VOCAB, d_model=HIDDEN, encoder_layers=LAYERS,
                                 decoder_layers=LAYERS, encoder_attention_heads=HEADS, decoder_attention_heads=HEADS,
                                 encoder_ffn_dim=FFN, decoder_ffn_dim=FFN, max_position_embeddings=POSITIONS,
                                 dropout=0.0, attention_dropout=0.0, activation_dropout=0.0),
                  seq2seq_ids, seq_range=(2, POSITIONS)),
        ModelSpec("vit", _model("ViTForImageClassification", "ViTConfig", ("pixel_values",), None,
                                image_size=32, patch_size=8, num_channels=3, num_labels=10, hidden_size=HIDDEN,
                                num_hidden_layers=LAYERS, num_attention_heads=HEADS, intermediate_size=FFN,
                                **NO_DROPOUT),
                  (InputSpec((BATCH, 3, 32, 32)),)),
        ModelSpec("whisper", _model("WhisperForConditionalGeneration", "WhisperConfig",
                                    ("input_features", "decoder_input_ids"), {"use_cache": False},
                                    vocab_size=VOCAB, num_mel_bins=16, d_model=HIDDEN, encoder_layers=LAYERS,
                                    decoder_layers=LAYERS, encoder_attention_heads=HEADS,
                                    decoder_attention_heads=HEADS, encoder_ffn_dim=FFN, decoder_ffn_dim=FFN,
                                    max_source_positions=16, max_target_positions=POSITIONS, dropout=0.0,
                                    attention_dropout=0.0, activation_dropout=0.0,
                                    # Whisper's default token ids (50256, 50257) lie outside a small vocabulary.
                                    pad_token_id=VOCAB - 1, eos_token_id=VOCAB - 1, bos_token_id=VOCAB - 2,
                                    decoder_start_token_id=VOCAB - 2),
                  (InputSpec((BATCH, 16, 32)), InputSpec((BATCH, 8), "int64", VOCAB, seq_dim=1)),
                  seq_range=(2, POSITIONS)),
    ]
    return specs
