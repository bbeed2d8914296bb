#!/usr/bin/env python3
"""Replays a term-proximity re-scoring of the fused top 10 on SquadBenchmark --dump-routes files.

  python3 proximity_replay.py DATASET.json DENSE.routes.jsonl SPARSE.routes.jsonl [W]

DATASET.json is the SQuAD-format file the dumps were made from (paragraph p<i> is the i-th
paragraph in file order, as SquadCorpus numbers them). Each question's dense list comes from
DENSE, its BM25 list and bound from SPARSE; they are fused as route_replay.minmax does
(0.3/0.7, g = 0.1) and the top 10 re-scored as fused + lambda * prox / max prox over the 10,
for a few lambda. prox sums, over pairs of distinct question terms (character bigrams of Han
runs, lower-cased Latin/digit words) that occur in the passage within W characters of each
other, min(idf) / d^2 for their closest occurrences d characters apart: the pairwise
closeness of Rasolofo & Savoy (2003), "Term proximity scoring for keyword-based retrieval
systems", with idf over the paragraphs. A study script for docs/BENCHMARKS.md ("The XQuAD zh
gap"); nothing in the product uses it.
"""
import json
import math
import re
import sys

from route_replay import load, metrics, minmax

TOKEN = re.compile(r'[\u4e00-\u9fff]+|[a-z0-9]+')


def terms(text):
    """[(term, character offset)]: bigrams of Han runs, whole Latin/digit words."""
    out = []
    for m in TOKEN.finditer(text.lower()):
        s = m.group()
        if s[0].isascii():
            out.append((s, m.start()))
        else:
            out.extend((s[i:i + 2], m.start() + i) for i in range(len(s) - 1))
    return out


def paragraphs(path):
    return [p['context'] for a in json.load(open(path, encoding='utf-8'))['data']
            for p in a['paragraphs']]


def proximity(question, passage, idf, window):
    wanted = {t for t, _ in terms(question)}
    pos = {}
    for t, p in terms(passage):
        if t in wanted:
            pos.setdefault(t, []).append(p)
    found = sorted(pos)
    score = 0.0
    for i, a in enumerate(found):
        for b in found[i + 1:]:
            if a in b or b in a or a[1:] == b[:1] or b[1:] == a[:1]:
                continue  # overlapping bigrams of one word say nothing about proximity
            d = min(abs(x - y) for x in pos[a] for y in pos[b])
            if 0 < d <= window:
                score += min(idf(a), idf(b)) / (d * d)
    return score


def main(dataset, dense_path, sparse_path, window=10):
    texts = paragraphs(dataset)
    df = {}
    for t in texts:
        for term in {x for x, _ in terms(t)}:
            df[term] = df.get(term, 0) + 1
    n = len(texts)

    def idf(term):
        k = df.get(term, 0)
        return math.log(1 + (n - k + 0.5) / (k + 0.5))

    dense = {q['q']: q['dense'] for q in load(dense_path)}
    questions = load(sparse_path)
    tops = []
    for q in questions:
        top = minmax(dense[q['q']], q['sparse'], q['maxSparse'])[:10]
        prox = [proximity(q['text'], texts[int(r[3][1:])], idf, window) for r in top]
        tops.append((q['gold'], top, prox))
    for lam in (0.0, 0.03, 0.05, 0.07, 0.1):
        rows = []
        for gold, top, prox in tops:
            mx = max(prox) or 1.0
            order = sorted(range(len(top)), key=lambda i: -(top[i][0] + lam * prox[i] / mx))
            rows.append((gold, [top[i][3] for i in order]))
        print('lambda %.2f W %d  R@1 / MRR@10 %s' % (lam, window, metrics(rows)))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 10)
