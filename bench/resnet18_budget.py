#!/usr/bin/python3
"""Budget sheet for a layer-pipelined ResNet-18 on one FPGA part (issue 14, design check).

A back-of-the-envelope model, not the estimator: it answers, before any of the streaming
architecture is built, whether torchvision ResNet-18 can reach a throughput target on a part
with its weights in on-chip ROMs or off chip, its feature maps in row windows (line buffers of
K rows) instead of whole ping-pong arrays, and residual paths in FIFOs.

Per layer: MACs, weights, the parallel factor (MACs per cycle) that meets the target interval,
the BRAM18K of its weights as a ROM banked by that factor, the BRAM18K of its input window,
the DSPs. Then a greedy placement: the layers whose ROM costs the fewest BRAM18K per MAC/cycle
stay on chip until the BRAM budget is spent; the others read their weights from off-chip memory
once per sample (weight-stationary order), charged against the part's bandwidth.

Usage: bench/resnet18_budget.py [--fps 100] [--bits 32] [--input 224] [--budget 0.8]
           [--dsp-per-mac 5] [--clock 200]
Figures for xcvu9p come from devices/xcvu9p.json (the device library): 6,840 DSP, 4,320
BRAM18K, 960 URAM, DDR4 77 GB/s. Everything printed is an estimate of this sheet.
"""
import argparse
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def resnet18_layers(size):
    """(name, cin, cout, k, stride, pad, h_in, w_in) for every conv and the fc, in order."""
    layers = []
    h = size

    def conv(name, cin, cout, k, s, p):
        nonlocal h
        layers.append((name, cin, cout, k, s, p, h, h))
        h = (h + 2 * p - k) // s + 1

    conv("conv1", 3, 64, 7, 2, 3)
    h = (h + 2 - 3) // 2 + 1  # maxpool 3x3/2 pad 1
    cin = 64
    for stage, cout in enumerate([64, 128, 256, 512], start=1):
        for block in range(2):
            s = 2 if (stage > 1 and block == 0) else 1
            h_in = h
            conv(f"layer{stage}.{block}.conv1", cin, cout, 3, s, 1)
            conv(f"layer{stage}.{block}.conv2", cout, cout, 3, 1, 1)
            if s != 1 or cin != cout:
                layers.append((f"layer{stage}.{block}.downsample", cin, cout, 1, s, 0, h_in, h_in))
            cin = cout
    layers.append(("fc", 512, 1000, 1, 1, 0, 1, 1))
    return layers


def words_per_bram18k(bits):
    # BRAM18K aspect ratios: 512x36, 1Kx18, 2Kx9, 4Kx4, 8Kx2, 16Kx1.
    for width, depth in ((1, 16384), (2, 8192), (4, 4096), (9, 2048), (18, 1024), (36, 512)):
        if bits <= width:
            return depth
    return 512 * (36 // bits) if bits <= 36 else 512 // math.ceil(bits / 36)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fps", type=float, default=100.0, help="target samples/s")
    ap.add_argument("--bits", type=int, default=32, help="weight and activation width")
    ap.add_argument("--input", type=int, default=224, help="input height = width")
    ap.add_argument("--budget", type=float, default=0.8, help="fraction of each resource")
    ap.add_argument("--dsp-per-mac", type=float, default=5.0, help="fp32: 5 (fmul 3 + fadd 2); int8 packed: 0.5")
    ap.add_argument("--clock", type=float, default=200.0, help="MHz")
    ap.add_argument("--device", default="xcvu9p")
    a = ap.parse_args()

    with open(os.path.join(HERE, "..", "devices", a.device + ".json")) as f:
        dev = json.load(f)
    res = dev["resources"]
    dsp_budget = res["dsp"] * a.budget
    bram_budget = res["bram18k"] * a.budget
    bw_gbps = dev["offchip"]["bandwidth_gbps"]
    interval = a.clock * 1e6 / a.fps
    per_bram = words_per_bram18k(a.bits)
    bytes_per_word = a.bits / 8

    rows = []
    for name, cin, cout, k, s, p, h, w in resnet18_layers(a.input):
        ho = (h + 2 * p - k) // s + 1
        macs = cin * cout * k * k * ho * ho
        weights = cin * cout * k * k
        pf = max(1, math.ceil(macs / interval))  # MACs per cycle this layer needs
        banks = min(pf, weights)
        rom = banks * math.ceil(weights / banks / per_bram)  # one bank per MAC lane
        window_words = (k + s) * (w + 2 * p) * cin if k > 1 else s * w * cin
        window = math.ceil(window_words / per_bram) if name != "fc" else 0
        rows.append(dict(name=name, macs=macs, weights=weights, pf=pf, rom=rom, window=window,
                         whole_words=h * w * cin,
                         dsp=pf * a.dsp_per_mac, gbps=weights * bytes_per_word * a.fps / 1e9))

    # Residual FIFOs: the skip path waits for two 3x3 convs, ~2 rows of the block's input each.
    skip = 0
    for name, cin, cout, k, s, p, h, w in resnet18_layers(a.input):
        if name.endswith(".conv1") and name.startswith("layer"):
            skip += math.ceil(4 * w * cin / per_bram)

    # Placement: every layer starts with its weights in a ROM and a row window; while the BRAM
    # budget is exceeded, the layer whose move saves the most BRAM18K reads its weights from off
    # chip once per sample (weight-stationary order) and keeps its whole input map, ping-pong, in
    # UltraRAM (a RAM: UltraRAM cannot hold initialized ROMs).
    uram_words = dev["memory"]["uram_words"]
    for r in rows:
        r["place"] = "rom"
        r["uram"] = 0
    maps = sum(r["window"] for r in rows) + skip
    used = maps + sum(r["rom"] for r in rows)
    for r in sorted(rows, key=lambda r: -(r["rom"] + r["window"])):
        if used <= bram_budget:
            break
        r["place"] = "ddr"
        used -= r["rom"] + r["window"]
        maps -= r["window"]
        r["window"] = 0
        r["uram"] = r["whole_words"] and 2 * math.ceil(r["whole_words"] / uram_words)

    total_macs = sum(r["macs"] for r in rows)
    print(f"ResNet-18 budget sheet (estimates of this sheet, not of the compiler): {a.device} at "
          f"{a.clock:g} MHz, {a.bits}-bit, {a.input}x{a.input}, target {a.fps:g} samples/s "
          f"(interval {interval:,.0f} cycles), budget {a.budget:.0%}")
    print(f"{'layer':<22}{'MMAC':>9}{'weights':>10}{'MAC/cyc':>9}{'DSP':>8}{'ROM bram':>10}"
          f"{'win bram':>10}{'place':>7}{'GB/s':>7}")
    for r in rows:
        gb = f"{r['gbps']:.2f}" if r["place"] == "ddr" else "-"
        print(f"{r['name']:<22}{r['macs'] / 1e6:>9.1f}{r['weights']:>10,}{r['pf']:>9}{r['dsp']:>8.0f}"
              f"{r['rom']:>10,}{r['window']:>10,}{r['place']:>7}{gb:>7}")
    dsp = sum(r["dsp"] for r in rows)
    rom = sum(r["rom"] for r in rows if r["place"] == "rom")
    ddr = sum(r["gbps"] for r in rows if r["place"] == "ddr")
    uram = sum(r["uram"] for r in rows)
    print(f"total: {total_macs / 1e9:.3f} GMAC, {sum(r['weights'] for r in rows) / 1e6:.2f} M weights")
    print(f"DSP {dsp:,.0f} of budget {dsp_budget:,.0f} ({'fits' if dsp <= dsp_budget else 'DOES NOT FIT'}); "
          f"the DSP bound of the budget: {dsp_budget / a.dsp_per_mac * a.clock * 1e6 / total_macs:.1f} samples/s")
    print(f"BRAM18K: windows {maps - skip:,} + skip FIFOs {skip:,} + ROMs {rom:,} = {maps + rom:,} of budget "
          f"{bram_budget:,.0f} ({'fits' if maps + rom <= bram_budget else 'DOES NOT FIT'})")
    print(f"URAM (input maps of the off-chip-weight layers): {uram:,} of budget {res['uram'] * a.budget:,.0f} "
          f"({'fits' if uram <= res['uram'] * a.budget else 'DOES NOT FIT'})")
    print(f"off-chip weights: {ddr:.1f} GB/s of {bw_gbps:g} GB/s "
          f"({'fits' if ddr <= bw_gbps else 'DOES NOT FIT'})")


if __name__ == "__main__":
    main()
