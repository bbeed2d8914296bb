#!/usr/bin/env python3
"""Replays fusion rules on SquadBenchmark --dump-routes files (one JSON object per question:
gold paragraph, dense list, BM25 list, the query's maximum attainable BM25 score).

  python3 route_replay.py CJK.routes.jsonl UNIGRAM_BIGRAM.routes.jsonl
  python3 route_replay.py --sparse-from NEW.routes.jsonl BASE.routes.jsonl

prints R@1 / MRR@10 per rule over the questions both files hold (a file still being written
is read up to its last complete line).

  python3 route_replay.py --dense OTHER.routes.jsonl CJK.routes.jsonl UNIGRAM_BIGRAM.routes.jsonl

takes every question's dense list from OTHER (matched by question id; e.g. a run with
--query-instruction) and the BM25 lists from the two files, so a dense variant is fused with
BM25 dumps of any analyzer or BM25 version without running BM25 again. The --sparse-from form
fuses BASE's dense list with NEW's BM25 list and bound, for a BM25-only change.
`minmax` reproduces org.openbook.retrieve.MinMaxFusion
(weights, BM25 minimum share g, ties by best single-route rank then chunk id) exactly for
single-field dense lists (Chinese questions); for English questions the dump's merged dense
list is cut at fetch-k, so replayed figures can differ from SquadBenchmark's by a question.
"""
import json
import sys


def load(path):
    out = []
    for line in open(path, encoding='utf-8'):
        try:
            out.append(json.loads(line))
        except ValueError:
            break
    return out


def norm(route, floor, spread):
    if not route:
        return []
    mn = min(s for _, _, s in route)
    mx = max(s for _, _, s in route)
    hi = max(mx, floor + spread)
    lo = max(floor, min(mn, hi - spread))
    span = hi - lo
    return [((s - lo) / span if span > 0 else 1.0) for _, _, s in route]


def minmax(dense, sparse, max_sparse, wd=0.3, ws=0.7, g=0.1):
    """[fused, best rank, chunk id, paragraph id], best first."""
    ent = {}
    for route, w, floor, spread in ((dense, wd, -1, 0.0),
                                    (sparse, ws, 0, g * max_sparse if max_sparse > 0 else 0)):
        for i, (x, n) in enumerate(zip(route, norm(route, floor, spread))):
            r = ent.setdefault(x[0], [0.0, 10 ** 9, x[0], x[1]])
            r[0] += w * n
            r[1] = min(r[1], i + 1)
    return sorted(ent.values(), key=lambda r: (-r[0], r[1], r[2]))


def summed(a, b):
    """Two BM25 lists of the same chunks (two analyzers) as one route: scores added."""
    sa = {x[0]: x for x in a}
    sb = {x[0]: x for x in b}
    out = [[c, (sa.get(c) or sb.get(c))[1], (sa[c][2] if c in sa else 0.0)
            + (sb[c][2] if c in sb else 0.0)] for c in set(sa) | set(sb)]
    return sorted(out, key=lambda x: -x[2])


def near_tie(ranked, dense, sparse, eps):
    """Within eps of the top fused score, the chunk with the better worse-route rank first."""
    if not ranked:
        return ranked
    dr = {x[0]: i + 1 for i, x in enumerate(dense)}
    sr = {x[0]: i + 1 for i, x in enumerate(sparse)}
    top = ranked[0][0]
    head = [r for r in ranked if r[0] >= top - eps]
    tail = [r for r in ranked if r[0] < top - eps]
    return sorted(head, key=lambda r: (max(dr.get(r[2], 10 ** 6), sr.get(r[2], 10 ** 6)),
                                       -r[0])) + tail


def metrics(rows):
    """rows: (gold paragraph, ranked paragraph ids of the top 10 chunks) -> R@1, MRR@10"""
    r1 = mrr = 0.0
    for gold, ids in rows:
        r1 += 1 if ids and ids[0] == gold else 0
        mrr += next((1 / (i + 1) for i, d in enumerate(ids) if d == gold), 0)
    return '%.3f / %.3f' % (r1 / len(rows), mrr / len(rows))


def top10(ranked):
    return [r[3] for r in ranked[:10]]


def with_dense(qs, dense_path):
    """qs with each question's dense list replaced by the one dense_path holds for it."""
    other = {q['q']: q['dense'] for q in load(dense_path)}
    missing = [q['q'] for q in qs if q['q'] not in other]
    assert not missing, '%d questions missing from %s, e.g. %s' % (
        len(missing), dense_path, missing[0])
    return [dict(q, dense=other[q['q']]) for q in qs]


def main(a_path, b_path, dense_path=None):
    a, b = load(a_path), load(b_path)
    n = min(len(a), len(b))
    a, b = a[:n], b[:n]
    assert [q['q'] for q in a] == [q['q'] for q in b], 'not the same questions'
    if dense_path:
        a, b = with_dense(a, dense_path), with_dense(b, dense_path)
    print('questions', n)
    for name, qs in (('A', a), ('B', b)):
        print(name, 'bm25', metrics([(q['gold'], [x[1] for x in q['sparse'][:10]]) for q in qs]))
        print(name, 'minmax 0.3/0.7 g=0.1',
              metrics([(q['gold'], top10(minmax(q['dense'], q['sparse'], q['maxSparse'])))
                       for q in qs]))
        print(name, 'minmax + near-tie 0.02', metrics([(q['gold'], top10(near_tie(
            minmax(q['dense'], q['sparse'], q['maxSparse']), q['dense'], q['sparse'], 0.02)))
            for q in qs]))
    print('dense', metrics([(q['gold'], [x[1] for x in q['dense'][:10]]) for q in a]))
    print('minmax over A+B BM25 summed', metrics([(x['gold'], top10(minmax(
        x['dense'], summed(x['sparse'], y['sparse']), x['maxSparse'] + y['maxSparse'])))
        for x, y in zip(a, b)]))


def swap_sparse(base_path, new_path):
    """BASE's dense list fused with NEW's BM25 list and bound: a BM25 change measured without
    embedding again (NEW from a --bm25-only --dump-routes run over the same chunks)."""
    base, new = load(base_path), load(new_path)
    n = min(len(base), len(new))
    base, new = base[:n], new[:n]
    assert [q['q'] for q in base] == [q['q'] for q in new], 'not the same questions'
    known = set(c[0] for q in base for c in q['dense'] + q['sparse'])
    unknown = sum(1 for q in new for c in q['sparse'] if c[0] not in known)
    changed = sum(1 for x, y in zip(base, new)
                  if [c[0] for c in x['sparse']] != [c[0] for c in y['sparse']])
    print('questions', n, '| BM25 lists changed', changed, '| chunk ids not in BASE', unknown)
    for name, qs in (('BASE', base), ('NEW', new)):
        print(name, 'bm25', metrics([(q['gold'], [x[1] for x in q['sparse'][:10]]) for q in qs]))
    print('BASE minmax 0.3/0.7 g=0.1', metrics([(q['gold'], top10(
        minmax(q['dense'], q['sparse'], q['maxSparse']))) for q in base]))
    print('BASE dense + NEW bm25, minmax 0.3/0.7 g=0.1', metrics([(x['gold'], top10(
        minmax(x['dense'], y['sparse'], y['maxSparse']))) for x, y in zip(base, new)]))


if __name__ == '__main__':
    args = sys.argv[1:]
    if args and args[0] == '--sparse-from':
        # route_replay.py --sparse-from NEW.routes.jsonl BASE.routes.jsonl
        swap_sparse(args[2], args[1])
        sys.exit(0)
    dense = None
    if args and args[0] == '--dense':
        dense, args = args[1], args[2:]
    main(args[0], args[1], dense)
