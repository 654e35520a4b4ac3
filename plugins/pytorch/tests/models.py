"""The round-trip models, written in plain torch with torchvision's and HuggingFace's module
names, so the tests need nothing beyond Debian's python3-torch.

Each builder returns (module, example_inputs) with seeded weights and inputs.
"""
import math

import torch
from torch import nn
import torch.nn.functional as F


# --- ResNet-18 (torchvision.models.resnet18's structure and names) ---------------------------

class BasicBlock(nn.Module):
    def __init__(self, inplanes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = None
        if stride != 1 or inplanes != planes:
            self.downsample = nn.Sequential(nn.Conv2d(inplanes, planes, 1, stride, bias=False),
                                            nn.BatchNorm2d(planes))

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + identity)


class ResNet18(nn.Module):
    def __init__(self, num_classes=10, width=64):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        planes = [width, width * 2, width * 4, width * 8]
        inplanes = width
        for i, p in enumerate(planes):
            stride = 1 if i == 0 else 2
            setattr(self, f"layer{i + 1}", nn.Sequential(BasicBlock(inplanes, p, stride), BasicBlock(p, p)))
            inplanes = p
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(inplanes, num_classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


# --- MobileNetV2 (torchvision.models.mobilenet_v2's structure and names) ---------------------

class ConvBNReLU(nn.Sequential):
    def __init__(self, inp, out, kernel=3, stride=1, groups=1):
        super().__init__(nn.Conv2d(inp, out, kernel, stride, (kernel - 1) // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(out), nn.ReLU6(inplace=True))


class InvertedResidual(nn.Module):
    def __init__(self, inp, out, stride, expand):
        super().__init__()
        hidden = inp * expand
        self.use_res_connect = stride == 1 and inp == out
        layers = [ConvBNReLU(inp, hidden, 1)] if expand != 1 else []
        layers += [ConvBNReLU(hidden, hidden, 3, stride, groups=hidden),
                   nn.Conv2d(hidden, out, 1, bias=False), nn.BatchNorm2d(out)]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


class MobileNetV2(nn.Module):
    # (expansion, channels, repeats, stride), as in the paper and torchvision.
    SETTING = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
               (6, 160, 3, 2), (6, 320, 1, 1)]

    def __init__(self, num_classes=10, width_mult=1.0):
        super().__init__()
        def ch(c):
            return max(8, int(c * width_mult + 4) // 8 * 8)
        inp = ch(32)
        features = [ConvBNReLU(3, inp, stride=2)]
        for t, c, n, s in self.SETTING:
            for i in range(n):
                features.append(InvertedResidual(inp, ch(c), s if i == 0 else 1, t))
                inp = ch(c)
        last = ch(1280)
        features.append(ConvBNReLU(inp, last, 1))
        self.features = nn.Sequential(*features)
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(last, num_classes))

    def forward(self, x):
        x = F.adaptive_avg_pool2d(self.features(x), (1, 1))
        return self.classifier(torch.flatten(x, 1))


# --- BERT (HuggingFace BertModel's structure and names) --------------------------------------

class BertSelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads, self.head_size = heads, hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.dropout = nn.Dropout(0.1)

    def split(self, x):
        b, s, _ = x.shape
        return x.view(b, s, self.heads, self.head_size).permute(0, 2, 1, 3)

    def forward(self, x, mask):
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size) + mask
        probs = self.dropout(F.softmax(scores, dim=-1))
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        return ctx.view(ctx.shape[0], ctx.shape[1], -1)


class BertSelfOutput(nn.Module):
    def __init__(self, hidden, inner=None):
        super().__init__()
        self.dense = nn.Linear(inner or hidden, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=1e-12)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x, residual):
        return self.LayerNorm(self.dropout(self.dense(x)) + residual)


class BertAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.self = BertSelfAttention(hidden, heads)
        self.output = BertSelfOutput(hidden)

    def forward(self, x, mask):
        return self.output(self.self(x, mask), x)


class BertIntermediate(nn.Module):
    def __init__(self, hidden, inner):
        super().__init__()
        self.dense = nn.Linear(hidden, inner)

    def forward(self, x):
        return F.gelu(self.dense(x))


class BertLayer(nn.Module):
    def __init__(self, hidden, heads, inner):
        super().__init__()
        self.attention = BertAttention(hidden, heads)
        self.intermediate = BertIntermediate(hidden, inner)
        self.output = BertSelfOutput(hidden, inner)

    def forward(self, x, mask):
        a = self.attention(x, mask)
        return self.output(self.intermediate(a), a)


class BertEncoder(nn.Module):
    def __init__(self, layers, hidden, heads, inner):
        super().__init__()
        self.layer = nn.ModuleList(BertLayer(hidden, heads, inner) for _ in range(layers))

    def forward(self, x, mask):
        for layer in self.layer:
            x = layer(x, mask)
        return x


class BertEmbeddings(nn.Module):
    def __init__(self, vocab, hidden, max_positions):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.position_embeddings = nn.Embedding(max_positions, hidden)
        self.token_type_embeddings = nn.Embedding(2, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=1e-12)
        self.dropout = nn.Dropout(0.1)

    def forward(self, ids):
        positions = torch.arange(ids.shape[1], dtype=torch.int64).unsqueeze(0)
        x = self.word_embeddings(ids) + self.position_embeddings(positions) + \
            self.token_type_embeddings(torch.zeros_like(ids))
        return self.dropout(self.LayerNorm(x))


class Bert(nn.Module):
    def __init__(self, layers=12, hidden=768, heads=12, inner=3072, vocab=30522, max_positions=512):
        super().__init__()
        self.embeddings = BertEmbeddings(vocab, hidden, max_positions)
        self.encoder = BertEncoder(layers, hidden, heads, inner)

    def forward(self, ids, attention_mask):
        mask = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * -10000.0
        return self.encoder(self.embeddings(ids), mask)


def _seeded(module, seed=0):
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.randn(p.shape, generator=gen) * 0.05)
    return module


def resnet18(batch=2, size=32, width=16):
    torch.manual_seed(0)
    model = _seeded(ResNet18(width=width))
    return model, (torch.randn(batch, 3, size, size, generator=torch.Generator().manual_seed(1)),)


def mobilenet_v2(batch=2, size=32, width_mult=0.25):
    torch.manual_seed(0)
    model = _seeded(MobileNetV2(width_mult=width_mult))
    return model, (torch.randn(batch, 3, size, size, generator=torch.Generator().manual_seed(1)),)


def bert(layers=2, batch=2, seq=16, hidden=64, heads=4, inner=128, vocab=100):
    torch.manual_seed(0)
    model = _seeded(Bert(layers, hidden, heads, inner, vocab, max_positions=max(seq, 32)))
    gen = torch.Generator().manual_seed(1)
    ids = torch.randint(0, vocab, (batch, seq), generator=gen)
    mask = torch.ones(batch, seq, dtype=torch.int64)
    mask[-1, seq // 2:] = 0
    return model, (ids, mask)


MODELS = {"resnet18": resnet18, "mobilenet_v2": mobilenet_v2, "bert": bert}
