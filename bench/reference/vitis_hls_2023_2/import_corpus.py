#!/usr/bin/python3
"""Copies the Vitis HLS 2023.2 figures of the calibration corpus into this directory.

Run by hand (never at build or run time): import_corpus.py CORPUS_DIR, where CORPUS_DIR holds
SUITE/FRAMEWORK/VARIANT/KERNEL/csynth_summary.txt, the synthesized sources and designs.csv.
Writes designs.csv (one row per design: the top module of csynth, the co-simulation cycles,
and the prediction ScaleHLS/HIDA wrote at the top of the sources it generated) and loops.csv
(every module and loop row of csynth_summary.txt, in the report's order).
"""
import csv
import os
import re
import sys


def number(cell):
    """'9 (~0%)' -> '9'; '-' -> ''."""
    cell = cell.strip()
    if cell in ('-', ''):
        return ''
    return cell.split(' ')[0]


def parse_summary(path):
    tool = ''
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith('tool:'):
                tool = line.strip()
            s = line.strip()
            if not s.startswith('|') or 'Modules' in s or '& Loops' in s:
                continue
            cells = s.strip('|').split('|')
            if len(cells) < 14:
                continue
            raw = cells[0]
            m = re.match(r'^( *)([+o]) (.*)$', raw)
            if not m:
                continue
            name = m.group(3).strip()
            rows.append({
                'level': len(m.group(1)),
                'kind': 'module' if m.group(2) == '+' else 'loop',
                'name': name.rstrip('*'),
                'dataflow': 'yes' if name.endswith('*') else '',
                'latency': number(cells[3]),
                'iteration_latency': number(cells[5]),
                'interval': number(cells[6]),
                'trip': number(cells[7]),
                'pipelined': cells[8].strip(),
                'bram18k': number(cells[9]),
                'dsp': number(cells[10]),
                'ff': number(cells[11]),
                'lut': number(cells[12]),
                'uram': number(cells[13]),
            })
    m = re.search(r'device (\S+), target clock ([0-9.]+) ns', tool)
    return m.group(1), m.group(2), rows


def scalehls_prediction(design_dir):
    """The 'Latency=..., interval=...' and 'DSP=..., BRAM=...' lines ScaleHLS/HIDA write."""
    for name in sorted(os.listdir(design_dir)):
        if not name.endswith('.cpp'):
            continue
        text = open(os.path.join(design_dir, name)).read()
        lat = re.search(r'/// Latency=(\d+), interval=(\d+)', text)
        res = re.search(r'/// DSP=(\d+), BRAM=(\d+)', text)
        if lat and res:
            return lat.group(1), lat.group(2), res.group(1), res.group(2)
    return '', '', '', ''


def main(corpus):
    here = os.path.dirname(os.path.abspath(__file__))
    cosim = {}
    with open(os.path.join(corpus, 'designs.csv')) as f:
        for row in csv.DictReader(f):
            cosim[row['design']] = (row['rtl_cosim_cycles'], row['sources'])
    designs, loops = [], []
    for design in sorted(cosim):
        device, clock_ns, rows = parse_summary(os.path.join(corpus, design, 'csynth_summary.txt'))
        top = rows[0]
        pred = scalehls_prediction(os.path.join(corpus, design))
        designs.append([design, device, clock_ns, top['latency'], top['interval'], top['dsp'] or '0',
                        top['bram18k'] or '0', top['lut'] or '0', top['ff'] or '0', top['uram'] or '0',
                        cosim[design][0], *pred, cosim[design][1]])
        for r in rows:
            loops.append([design, r['level'], r['kind'], r['name'], r['dataflow'], r['latency'],
                          r['iteration_latency'], r['interval'], r['trip'], r['pipelined'], r['dsp'],
                          r['bram18k'], r['lut'], r['ff'], r['uram']])
    with open(os.path.join(here, 'designs.csv'), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(['design', 'device', 'clock_ns', 'latency', 'interval', 'dsp', 'bram18k', 'lut', 'ff', 'uram',
                    'cosim_cycles', 'scalehls_latency', 'scalehls_interval', 'scalehls_dsp', 'scalehls_bram18k',
                    'sources'])
        w.writerows(designs)
    with open(os.path.join(here, 'loops.csv'), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(['design', 'level', 'kind', 'name', 'dataflow', 'latency', 'iteration_latency', 'interval',
                    'trip', 'pipelined', 'dsp', 'bram18k', 'lut', 'ff', 'uram'])
        w.writerows(loops)
    print(f'{len(designs)} designs, {len(loops)} module and loop rows')


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: import_corpus.py CORPUS_DIR')
    main(sys.argv[1])
