// The tags of every built-in op (OpTags.h), one row an op, in registry order by family. A row
// says what the op is and what passes may assume of it; OpTagsTest fails when an op has no row,
// a row no op, or a row disagrees with the op's schema.
#include <algorithm>
#include <iterator>

#include "engine/ops/OpTags.h"

namespace fathom {
namespace {

constexpr OpTags tags(OpTag t) { return {static_cast<uint32_t>(t)}; }

// Short names for the rows below.
constexpr OpTag Pw = OpTag::Pointwise, Red = OpTag::Reduction, View = OpTag::View, Fac = OpTag::Factory,
                Con = OpTag::Contraction, Comp = OpTag::Composite, Idx = OpTag::Indexing, Shape = OpTag::Shape,
                Sym = OpTag::SymInt, Struct = OpTag::Structural, Inpl = OpTag::Inplace, Rand = OpTag::Random,
                Rec = OpTag::Recomputable, MayAlias = OpTag::MayAlias, HasInpl = OpTag::HasInplace;

constexpr OpTagRow kRows[] = {
    // StructuralOps.cpp, and the compiled-autograd hook (aot/CompiledAutograd.cpp)
    {"getitem", Struct | Rec, true},
    {"fathom.call_hook.default", tags(Struct), true},
    // SymIntOps.cpp
    {"aten.sym_size.default", Sym | Rec, true},
    {"aten.sym_size.int", tags(Sym), true},
    {"aten.sym_stride.int", tags(Sym), true},
    {"aten.sym_numel.default", tags(Sym), true},
    {"aten.sym_storage_offset.default", tags(Sym), true},
    {"operator.add", Sym | Rec, true},
    {"operator.sub", Sym | Rec, true},
    {"operator.mul", Sym | Rec, true},
    {"operator.floordiv", Sym | Rec, true},
    {"operator.mod", tags(Sym), true},
    {"operator.neg", tags(Sym), true},
    {"torch.sym_sum", Sym | Rec, true},
    {"operator.truediv", Sym | Rec, true},
    // PointwiseOps.cpp
    {"aten.add.Tensor", Pw | Rec | HasInpl, true},
    {"aten.add.Scalar", Pw | Rec | HasInpl, true},
    {"aten.sub.Tensor", Pw | Rec | HasInpl, true},
    {"aten.sub.Scalar", Pw | Rec | HasInpl, true},
    {"aten.rsub.Tensor", Pw | Rec, true},
    {"aten.rsub.Scalar", Pw | Rec, true},
    {"aten.mul.Tensor", Pw | Rec | HasInpl, true},
    {"aten.mul.Scalar", Pw | Rec | HasInpl, true},
    {"aten.div.Tensor", Pw | Rec | HasInpl, true},
    {"aten.true_divide.Tensor", Pw | Rec, true},
    {"aten.div.Scalar", Pw | Rec | HasInpl, true},
    {"aten.neg.default", Pw | Rec | HasInpl, true},
    {"aten.relu.default", Pw | Rec | HasInpl, true},
    {"aten.exp.default", Pw | Rec | HasInpl, true},
    {"aten.tanh.default", Pw | Rec | HasInpl, true},
    {"aten.sigmoid.default", Pw | Rec | HasInpl, true},
    {"aten.threshold_backward.default", tags(Pw), true},
    // MathOps.cpp, ActivationOps.cpp, ComparisonOps.cpp, FillOps.cpp
    {"aten.abs.default", Pw | Rec | HasInpl, true},
    {"aten.log.default", Pw | Rec, true},
    {"aten.sqrt.default", Pw | Rec | HasInpl, true},
    {"aten.rsqrt.default", Pw | Rec | HasInpl, true},
    {"aten.pow.Tensor_Scalar", Pw | Rec | HasInpl, true},
    {"aten.clamp.default", Pw | Rec | HasInpl, true},
    {"aten.clamp_min.default", Pw | Rec, true},
    {"aten.hardtanh.default", Pw | Rec | HasInpl, true},
    {"aten.maximum.default", Pw | Rec, true},
    {"aten.minimum.default", Pw | Rec, true},
    {"aten.gelu.default", Pw | Rec | HasInpl, true},
    {"aten.gelu_backward.default", tags(Pw), true},
    {"aten.tanh_backward.default", tags(Pw), true},
    {"aten.sigmoid_backward.default", tags(Pw), true},
    {"aten.hardtanh_backward.default", tags(Pw), true},
    {"aten.eq.Tensor", Pw | Rec, true},
    {"aten.eq.Scalar", Pw | Rec, true},
    {"aten.ne.Tensor", Pw | Rec, true},
    {"aten.ne.Scalar", Pw | Rec, true},
    {"aten.lt.Tensor", Pw | Rec, true},
    {"aten.lt.Scalar", Pw | Rec, true},
    {"aten.le.Tensor", Pw | Rec, true},
    {"aten.le.Scalar", Pw | Rec, true},
    {"aten.gt.Tensor", Pw | Rec, true},
    {"aten.gt.Scalar", Pw | Rec, true},
    {"aten.ge.Tensor", Pw | Rec, true},
    {"aten.ge.Scalar", Pw | Rec, true},
    {"aten.logical_not.default", Pw | Rec, true},
    {"aten.where.self", Pw | Rec, true},
    {"aten.fill.Scalar", Pw | Rec, true},
    {"aten.masked_fill.Scalar", Pw | Rec | HasInpl, true},
    {"aten.tril.default", Pw | Rec | HasInpl, true},
    {"aten.triu.default", Pw | Rec | HasInpl, true},
    // Core ATen elementwise (item 24): UnaryMathOps.cpp
    {"aten.acos.default", Pw | Rec, true},
    {"aten.acosh.default", Pw | Rec, true},
    {"aten.asin.default", Pw | Rec, true},
    {"aten.asinh.default", Pw | Rec, true},
    {"aten.atan.default", Pw | Rec, true},
    {"aten.atanh.default", Pw | Rec, true},
    {"aten.cos.default", Pw | Rec, true},
    {"aten.cosh.default", Pw | Rec, true},
    {"aten.sin.default", Pw | Rec, true},
    {"aten.sinh.default", Pw | Rec, true},
    {"aten.tan.default", Pw | Rec, true},
    {"aten.erf.default", Pw | Rec, true},
    {"aten.expm1.default", Pw | Rec, true},
    {"aten.log10.default", Pw | Rec, true},
    {"aten.log1p.default", Pw | Rec, true},
    {"aten.log2.default", Pw | Rec, true},
    {"aten.reciprocal.default", Pw | Rec, true},
    {"aten.ceil.default", Pw | Rec, true},
    {"aten.floor.default", Pw | Rec, true},
    {"aten.round.default", Pw | Rec, true},
    {"aten.trunc.default", Pw | Rec, true},
    {"aten.sign.default", Pw | Rec, true},
    {"aten.isnan.default", Pw | Rec, true},
    {"aten.isinf.default", Pw | Rec, true},
    {"aten.bitwise_not.default", Pw | Rec, true},
    // Core ATen elementwise (item 24): BitwiseOps.cpp
    {"aten.bitwise_and.Tensor", Pw | Rec, true},
    {"aten.bitwise_and.Scalar", Pw | Rec, true},
    {"aten.bitwise_or.Tensor", Pw | Rec, true},
    {"aten.bitwise_or.Scalar", Pw | Rec, true},
    {"aten.bitwise_xor.Tensor", Pw | Rec, true},
    {"aten.bitwise_xor.Scalar", Pw | Rec, true},
    {"aten.logical_and.default", Pw | Rec, true},
    {"aten.logical_or.default", Pw | Rec, true},
    {"aten.logical_xor.default", Pw | Rec, true},
    // Core ATen elementwise (item 24): BinaryMathOps.cpp
    {"aten.fmod.Tensor", Pw | Rec, true},
    {"aten.fmod.Scalar", Pw | Rec, true},
    {"aten.remainder.Tensor", Pw | Rec, true},
    {"aten.remainder.Scalar", Pw | Rec, true},
    {"aten.atan2.default", Pw | Rec, true},
    {"aten.pow.Tensor_Tensor", Pw | Rec, true},
    {"aten.pow.Scalar", Pw | Rec, true},
    {"aten.clamp.Tensor", Pw | Rec, true},
    {"aten.elu.default", Pw | Rec | HasInpl, true},
    {"aten.elu_backward.default", tags(Pw), true},
    {"aten.leaky_relu.default", Pw | Rec | HasInpl, true},
    {"aten.leaky_relu_backward.default", tags(Pw), true},
    // TernaryPointwiseOps.cpp (timm's ResMLP)
    {"aten.addcmul.default", Pw | Rec, true},
    {"aten.addcdiv.default", Pw | Rec, true},
    // ReductionOps.cpp, MaxReductionOps.cpp, ScanOps.cpp
    {"aten.sum.default", tags(Red), true},
    {"aten.sum.dim_IntList", tags(Red), true},
    {"aten.mean.default", tags(Red), true},
    {"aten.mean.dim", tags(Red), true},
    {"aten.var.correction", tags(Red), true},
    {"aten.amax.default", tags(Red), true},
    {"aten.argmax.default", tags(Red), true},
    {"aten.max.dim", tags(Red), true},
    {"aten.cumsum.default", tags(Red), true},
    // Core ATen reductions (item 24): MaxReductionOps.cpp, ReductionOps.cpp, FoldReductionOps.cpp
    {"aten.amin.default", tags(Red), true},
    {"aten.min.dim", tags(Red), true},
    {"aten.argmin.default", tags(Red), true},
    {"aten.var.dim", tags(Red), true},
    {"aten.prod.default", tags(Red), true},
    {"aten.prod.dim_int", tags(Red), true},
    {"aten.any.default", tags(Red), true},
    {"aten.any.dim", tags(Red), true},
    {"aten.linalg_vector_norm.default", tags(Red), true},  // VectorNormOps.cpp (F.normalize in torch 2.x)
    // MatmulOps.cpp, ConvolutionOps.cpp
    {"aten.mm.default", tags(Con), true},
    {"aten.addmm.default", tags(Con), true},
    {"aten.bmm.default", tags(Con), true},
    {"aten.baddbmm.default", tags(Con), true},
    {"aten.convolution.default", tags(Con), true},
    {"aten.convolution_backward.default", tags(Con), true},
    // ViewOps.cpp, ShapeOps.cpp
    {"aten.view.default", View | Rec, true},
    {"aten._unsafe_view.default", View | Rec | MayAlias, true},
    {"aten._reshape_alias.default", View | Rec, true},
    {"aten.reshape.default", View | Rec | MayAlias, true},
    {"aten.contiguous.default", View | MayAlias, true},
    {"aten.permute.default", View | Rec, true},
    {"aten.transpose.int", View | Rec, true},
    {"aten.t.default", View | Rec, true},
    {"aten.expand.default", View | Rec, true},
    {"aten.unsqueeze.default", View | Rec, true},
    {"aten.squeeze.dim", View | Rec, true},
    {"aten.squeeze.default", View | Rec, true},
    {"aten.slice.Tensor", View | Rec, true},
    {"aten.select.int", View | Rec, true},
    {"aten.alias.default", View | Rec, true},
    {"aten.detach.default", View | Rec, true},
    {"aten.as_strided.default", tags(View), true},
    {"aten.split.Tensor", tags(View), true},
    {"aten.split_with_sizes.default", tags(View), true},
    {"aten.unbind.int", tags(View), true},
    {"aten.cat.default", tags(Shape), true},
    {"aten.stack.default", tags(Shape), true},
    {"aten.flip.default", tags(Shape), true},
    // FactoryOps.cpp, RangeFactories.cpp
    {"aten.clone.default", Pw | Rec, true},
    {"aten._to_copy.default", Pw | Rec, true},
    {"prims.convert_element_type.default", Pw | Rec, true},
    {"aten.zeros_like.default", Fac | Rec, true},
    {"aten.ones_like.default", Fac | Rec, true},
    {"aten.full_like.default", Fac | Rec, true},
    {"aten.empty_like.default", Fac | Rec, true},
    {"aten.full.default", Fac | Rec, true},
    {"aten.zeros.default", Fac | Rec, true},
    {"aten.ones.default", Fac | Rec, true},
    {"aten.new_zeros.default", Fac | Rec, true},
    {"aten.new_ones.default", tags(Fac), true},
    {"aten.new_full.default", tags(Fac), true},
    {"aten.new_empty.default", tags(Fac), true},
    {"aten.empty.memory_format", tags(Fac), true},
    {"aten.empty_strided.default", tags(Fac), true},
    {"aten.new_empty_strided.default", tags(Fac), true},
    {"aten.arange.default", Fac | Rec, true},
    {"aten.arange.start", Fac | Rec, true},
    {"aten.arange.start_step", tags(Fac), true},
    // SoftmaxOps.cpp, LayerNormOps.cpp, BatchNormOps.cpp, PoolingOps.cpp, NllLossOps.cpp,
    // DropoutOps.cpp, EmbeddingOps.cpp
    {"aten._softmax.default", tags(Comp), true},
    {"aten._softmax_backward_data.default", tags(Comp), true},
    {"aten._log_softmax.default", tags(Comp), true},
    {"aten._log_softmax_backward_data.default", tags(Comp), true},
    {"aten._safe_softmax.default", tags(Comp), true},
    {"aten.native_layer_norm.default", tags(Comp), true},
    {"aten.native_layer_norm_backward.default", tags(Comp), true},
    {"aten.native_group_norm.default", tags(Comp), true},  // Core ATen (item 24): GroupNormOps.cpp
    {"aten.native_group_norm_backward.default", tags(Comp), true},
    {"aten.native_batch_norm.default", tags(Comp), true},
    {"aten.native_batch_norm_backward.default", tags(Comp), true},
    {"aten._native_batch_norm_legit_functional.default", tags(Comp), true},
    {"aten.avg_pool2d.default", tags(Comp), true},
    {"aten.avg_pool2d_backward.default", tags(Comp), true},
    {"aten.max_pool2d_with_indices.default", tags(Comp), true},
    {"aten.max_pool2d_with_indices_backward.default", tags(Comp), true},
    {"aten.nll_loss_forward.default", tags(Comp), true},
    {"aten.nll_loss_backward.default", tags(Comp), true},
    {"aten.native_dropout.default", Comp | Rand, true},
    {"aten.native_dropout_backward.default", tags(Comp), true},
    {"aten.embedding.default", tags(Comp), true},
    {"aten.embedding_dense_backward.default", tags(Comp), true},
    // Core ATen embedding bags: EmbeddingBagOps.cpp, EmbeddingBagBackwardOps.cpp
    {"aten._embedding_bag.default", tags(Comp), true},
    {"aten._embedding_bag_backward.default", tags(Comp), true},
    {"aten._embedding_bag_dense_backward.default", tags(Comp), true},
    {"aten._embedding_bag_per_sample_weights_backward.default", tags(Comp), true},
    // Core ATen padding (item 24): PaddingOps.cpp
    {"aten.reflection_pad1d.default", tags(Comp), true},
    {"aten.reflection_pad1d_backward.default", tags(Comp), true},
    {"aten.reflection_pad2d.default", tags(Comp), true},
    {"aten.reflection_pad2d_backward.default", tags(Comp), true},
    {"aten.reflection_pad3d.default", tags(Comp), true},
    {"aten.reflection_pad3d_backward.default", tags(Comp), true},
    {"aten.replication_pad1d.default", tags(Comp), true},
    {"aten.replication_pad1d_backward.default", tags(Comp), true},
    {"aten.replication_pad2d.default", tags(Comp), true},
    {"aten.replication_pad2d_backward.default", tags(Comp), true},
    {"aten.replication_pad3d.default", tags(Comp), true},
    {"aten.replication_pad3d_backward.default", tags(Comp), true},
    // Core ATen 1-d pooling (item 24): Pooling1dOps.cpp
    {"aten.avg_pool1d.default", tags(Comp), true},
    {"aten.adaptive_avg_pool1d.default", tags(Comp), true},
    // Core ATen 3-d pooling (item 24): Pooling3dOps.cpp, AdaptivePoolingOps.cpp
    {"aten.avg_pool3d.default", tags(Comp), true},
    {"aten.avg_pool3d_backward.default", tags(Comp), true},
    {"aten.max_pool3d_with_indices.default", tags(Comp), true},
    {"aten.max_pool3d_with_indices_backward.default", tags(Comp), true},
    {"aten._adaptive_avg_pool3d.default", tags(Comp), true},
    {"aten._adaptive_avg_pool3d_backward.default", tags(Comp), true},
    // torch 2.x's CPU flash attention: AttentionOps.cpp
    {"aten._scaled_dot_product_flash_attention_for_cpu.default", tags(Comp), true},
    {"aten._scaled_dot_product_flash_attention_for_cpu_backward.default", tags(Comp), true},
    // Core ATen pairwise distances: DistanceOps.cpp
    {"aten._cdist_forward.default", tags(Comp), true},
    {"aten._cdist_backward.default", tags(Comp), true},
    {"aten._pdist_forward.default", tags(Comp), true},
    {"aten._pdist_backward.default", tags(Comp), true},
    // PReLU: PreluOps.cpp (1.13's prelu reads its weight along dim 1, not by broadcasting)
    {"aten.prelu.default", tags(Comp), true},
    {"aten.prelu_backward.default", tags(Comp), true},
    {"aten._prelu_kernel.default", Pw | Rec, true},
    {"aten._prelu_kernel_backward.default", tags(Comp), true},
    // Core ATen upsampling (item 24): UpsampleOps.cpp
    {"aten.upsample_nearest2d.default", tags(Comp), true},
    {"aten.upsample_nearest2d_backward.default", tags(Comp), true},
    {"aten.upsample_nearest2d.vec", tags(Comp), true},
    {"aten.upsample_nearest2d_backward.vec", tags(Comp), true},
    {"aten.upsample_bilinear2d.default", tags(Comp), true},
    {"aten.upsample_bilinear2d_backward.default", tags(Comp), true},
    {"aten.upsample_bilinear2d.vec", tags(Comp), true},
    {"aten.upsample_bilinear2d_backward.vec", tags(Comp), true},
    // Core ATen im2col / col2im and grid sampling (item 24): FoldOps.cpp, GridSamplerOps.cpp
    {"aten.im2col.default", tags(Comp), true},
    {"aten.col2im.default", tags(Comp), true},
    {"aten.grid_sampler_2d.default", tags(Comp), true},
    {"aten.grid_sampler_2d_backward.default", tags(Comp), true},
    // IndexingOps.cpp, GradientOps.cpp
    {"aten.gather.default", tags(Idx), true},
    {"aten.index_select.default", tags(Idx), true},
    {"aten.slice_backward.default", tags(Idx), true},
    {"aten.select_backward.default", tags(Idx), true},
    // Issue 24, the ops torchvision's models brought in (one block, for merging):
    // SwishOps.cpp: the gated activations of MobileNetV3 and EfficientNet
    {"aten.hardswish.default", Pw | Rec | HasInpl, true},
    {"aten.hardsigmoid.default", Pw | Rec | HasInpl, true},
    {"aten.silu.default", Pw | Rec | HasInpl, true},
    {"aten.hardswish_backward.default", tags(Pw), true},
    {"aten.hardsigmoid_backward.default", tags(Pw), true},
    {"aten.silu_backward.default", tags(Pw), true},
    // DivisionOps.cpp: div with a rounding mode; FillOps.cpp: masked_fill with a tensor value
    {"aten.div.Tensor_mode", Pw | Rec | HasInpl, true},
    {"aten.div.Scalar_mode", Pw | Rec | HasInpl, true},
    {"aten.masked_fill.Tensor", Pw | Rec | HasInpl, true},
    // AdaptivePoolingOps.cpp: adaptive average pooling (VGG, AlexNet)
    {"aten._adaptive_avg_pool2d.default", tags(Comp), true},
    {"aten._adaptive_avg_pool2d_backward.default", tags(Comp), true},
    // AdvancedIndexingOps.cpp, FunctionalizedOps.cpp, PadRollOps.cpp: Swin's and ConvNeXt's
    // indexing, the functional forms of mutations, padding and rolling
    {"aten.index.Tensor", tags(Idx), true},
    {"aten.index_put.default", Idx | HasInpl, true},
    {"aten._unsafe_index.Tensor", tags(Idx), true},
    {"aten._unsafe_index_put.default", tags(Idx), true},
    {"aten.zero.default", Fac | Rec, true},
    {"aten.fill.Tensor", Pw | Rec | HasInpl, true},
    {"aten.lift_fresh_copy.default", Pw | Rec, true},
    {"aten.slice_scatter.default", tags(Idx), true},
    {"aten.as_strided_scatter.default", tags(Idx), true},
    {"aten.constant_pad_nd.default", tags(Shape), true},
    {"aten.roll.default", tags(Shape), true},
    // Core ATen views, copies, scatters and sorting (item 24): ViewOps.cpp, GradientOps.cpp,
    // ShapeOps.cpp, FactoryOps.cpp, ScatterOps.cpp, SortOps.cpp (sort and topk work along a dim, as max.dim)
    {"aten.diagonal.default", View | Rec, true},
    {"aten.diagonal_backward.default", tags(Idx), true},
    {"aten.repeat.default", tags(Shape), true},
    {"aten.scalar_tensor.default", Fac | Rec, true},
    {"aten.copy.default", View | Rec | MayAlias, true},  // 1.13: src itself if it has self's sizes and dtype; 2.x never
    {"aten.scatter.src", tags(Idx), true},
    {"aten.scatter.value", tags(Idx), true},
    {"aten.scatter_add.default", tags(Idx), true},
    {"aten.scatter_reduce.two", tags(Idx), true},
    {"aten.masked_scatter.default", tags(Idx), true},
    {"aten.select_scatter.default", tags(Idx), true},
    {"aten.sort.default", tags(Red), true},
    {"aten.topk.default", tags(Red), true},
    // Core ATen random factories (item 24): RandomFactories.cpp
    {"aten.rand.default", Fac | Rand, true},
    {"aten.randn.default", Fac | Rand, true},
    {"aten.randperm.default", Fac | Rand, true},
    {"aten.rand_like.default", Fac | Rand, true},
    {"aten.randn_like.default", Fac | Rand, true},
    // InplaceOps.cpp (the X_ forms of every HasInplace op are tagged Inplace as they register)
    {"aten.copy_.default", tags(Inpl), true},
    {"aten.fill_.Scalar", tags(Inpl), true},
    {"aten.zero_.default", tags(Inpl), true},
    {"aten.bernoulli_.float", Inpl | Rand, true},
    // Not registered here; PyTorch graphs hold them (opaque with --keep-unknown-ops).
    {"aten.bernoulli.default", Pw | Rand, false},
};

OpTags find(std::string_view name, bool registered) {
  auto it = std::find_if(std::begin(kRows), std::end(kRows),
                         [&](const OpTagRow& r) { return r.registered == registered && name == r.name; });
  return it == std::end(kRows) ? OpTags{} : it->tags;
}

}  // namespace

OpTags builtinOpTags(std::string_view name) { return find(name, true); }
OpTags unregisteredOpTags(std::string_view name) { return find(name, false); }

const OpTagRow* opTagRows(size_t* count) {
  *count = std::size(kRows);
  return kRows;
}

std::string describeTags(OpTags t) {
  static constexpr std::pair<OpTag, const char*> kNames[] = {
      {OpTag::Pointwise, "pointwise"}, {OpTag::Reduction, "reduction"}, {OpTag::View, "view"},
      {OpTag::Factory, "factory"}, {OpTag::Contraction, "contraction"}, {OpTag::Composite, "composite"},
      {OpTag::Indexing, "indexing"}, {OpTag::Shape, "shape"}, {OpTag::SymInt, "symint"},
      {OpTag::Structural, "structural"}, {OpTag::Inplace, "inplace"}, {OpTag::Random, "random"},
      {OpTag::Recomputable, "recomputable"}, {OpTag::MayAlias, "may-alias"}, {OpTag::HasInplace, "has-inplace"}};
  std::string out;
  for (const auto& [tag, name] : kNames)
    if (t.has(tag)) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

}  // namespace fathom
