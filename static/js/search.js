/* Site search's ranking (site_builder/search.py builds the index): what a query stands
   for and which sections answer it best, as ``ex.search``. ``query(index, text)`` ranks
   a one-file index; a large site's index is split (search_files.py): its first file
   holds the vocabulary, and ``querySplit`` loads the parts a query needs. No page in
   here: the relevance tests and the benchmarks run it under Node, and the search box
   (search-box.js) calls it. */
(function () {
  "use strict";
  const root = typeof window !== "undefined" ? window : globalThis;
  const ex = root.explorables = root.explorables || {};
  const STOP = new Set(("a an and are as at be by for from has have in into is it its of on or that the this " +
    "to was were will with which we you your our can not").split(" "));

  function words(text) {
    // letters and digits of any script, without accents or Hebrew points: as search.py
    // a subscript is part of its letter's word: "d_k" as "dₖ" (NFKD: "dk")
    return text.toLowerCase().normalize("NFKD").replace(/\p{M}|_/gu, "").match(/[\p{L}\p{N}]+/gu) || [];
  }

  function stem(w) {  // mirrors search.py's stem
    if (w.length > 4 && w.endsWith("ies")) return w.slice(0, -3) + "y";
    if (w.length > 4 && w.endsWith("es") && /(x|ch|sh|ss)$/.test(w.slice(0, -2))) return w.slice(0, -2);
    if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
    return w;
  }

  /* The index's vocabulary as one text, " term term ... term ", its terms in order of
     their UTF-16 code units (as "<" compares them): a split index's first file holds it
     so (search_files.py), read at once, with no string made a term (nor a copy of the
     text: 1 ms). A term is looked up by halving (``lower``); a prefix's terms follow one
     another from the first. */
  function vocabOf(index) {
    if (index.words === undefined) {
      const vocab = index.vocab !== undefined ? index.vocab : Object.keys(index.terms);
      index.words = typeof vocab === "string" ? vocab : " " + vocab.slice().sort().join(" ") + " ";
    }
    return index.words;
  }

  /* The place of the space before the first term of ``words`` not before ``key`` (the
     last space if none is). */
  function lower(words, key) {
    let lo = 0, hi = words.length - 1;  // spaces; the one wanted is one of lo..hi
    while (lo < hi) {
      const mid = words.lastIndexOf(" ", (lo + hi) >> 1);  // lo at the latest
      if (words.slice(mid + 1, words.indexOf(" ", mid + 1)) < key) lo = words.indexOf(" ", mid + 1);
      else hi = mid;
    }
    return lo;
  }

  /* The place of the space after the last term of ``words`` that starts with ``prefix``. */
  function after(words, prefix) {
    const last = prefix.charCodeAt(prefix.length - 1);
    if (last === 0xffff) return words.length - 1;
    return lower(words, prefix.slice(0, -1) + String.fromCharCode(last + 1));
  }

  /* The terms of ``words`` between its spaces at ``from`` and ``to`` at most ``max``
     edits from ``word`` (a swap of two neighbours is one edit): [term, edits]. A row of
     edit distances a letter of a term; the terms are in order, so a term shares the rows
     of the beginning it shares with the one before, and once a row of a beginning is
     past max, the terms that begin so are passed over at once (the row before it is not
     below max then, so not even a swap, reaching back two rows, comes back to max).
     Only the cells within max of the diagonal may hold max or less: only those are
     worked out, the rows kept between calls. */
  const FAR = 1 << 20;  // a cell not worked out
  let table = new Int32Array(64);
  function near(words, from, to, word, max) {
    const m = word.length, width = m + 1, deepest = m + max + 1;  // a longer beginning is past max
    if (table.length < (deepest + 1) * width) table = new Int32Array((deepest + 1) * width);
    for (let j = 0; j <= m; j++) table[j] = j;  // row 0: the empty beginning
    const out = [];
    let kept = 0, valid = 0;  // the rows 1..valid are of the beginning of the term at kept
    for (let at = from; at < to;) {
      const start = at + 1, end = words.indexOf(" ", start), size = end - start;
      let d = 0, past = 0;
      while (d < valid && d < size && words.charCodeAt(start + d) === words.charCodeAt(kept + d)) d += 1;
      kept = start;
      for (; d < size; d++) {  // row d + 1: letter d of the term
        if (d + 1 - max > m) {  // longer than the word by more than max
          past = d + 1;
          break;
        }
        const lo = d + 1 - max > 1 ? d + 1 - max : 1, hi = d + 1 + max < m ? d + 1 + max : m;
        const row = (d + 1) * width, up = d * width, two = up - width;
        const c = words.charCodeAt(start + d), back = d > 0 ? words.charCodeAt(start + d - 1) : -1;
        table[row + lo - 1] = lo === 1 ? d + 1 : FAR;
        let best = table[row + lo - 1];
        for (let j = lo; j <= hi; j++) {
          const wj = word.charCodeAt(j - 1);
          let e = table[up + j - 1] + (c === wj ? 0 : 1);
          if (table[up + j] + 1 < e) e = table[up + j] + 1;
          if (table[row + j - 1] + 1 < e) e = table[row + j - 1] + 1;
          if (back === wj && j > 1 && c === word.charCodeAt(j - 2) && table[two + j - 2] + 1 < e) e = table[two + j - 2] + 1;
          table[row + j] = e;
          if (e < best) best = e;
        }
        if (hi < m) table[row + hi + 1] = FAR;  // the next row's last cell looks up at it
        if (best > max) {
          past = d + 1;
          break;
        }
      }
      if (past) {  // no term that begins so is near: on to the first that does not
        valid = past;
        const next = after(words, words.slice(start, start + past));
        at = next < to ? next : to;
        continue;
      }
      valid = size;
      const e = table[size * width + m];
      if (size - m <= max && m - size <= max && e <= max) out.push([words.slice(start, end), e]);
      at = end;
    }
    return out;
  }

  /* Edit distance of a and the term b (no spaces) if at most max, else max + 1. */
  function distance(a, b, max) {
    const hit = near(" " + b + " ", 0, b.length + 1, a, max);
    return hit.length ? hit[0][1] : max + 1;
  }

  /* The terms of the index a query word stands for: [term, factor]. */
  function expand(index, word, last) {
    const words = vocabOf(index);
    const found = [];
    let at = lower(words, word);
    if (words.startsWith(word + " ", at + 1)) found.push([word, 1]);
    if (last && word.length >= 2) {  // the terms it begins, in order from the first
      for (; at < words.length - 1 && words.startsWith(word, at + 1); at = words.indexOf(" ", at + 1)) {
        const term = words.slice(at + 1, words.indexOf(" ", at + 1));
        if (term !== word) found.push([term, 0.6]);
      }
    }
    if (!found.length && word.length >= 4) typos(words, word, found);
    return found;
  }

  /* [term, 0.5 or 0.3] of the terms one or two edits from ``word`` (two from eight
     letters on) that start alike: the first letter, the second, or the two swapped.
     Those are runs of the vocabulary: the terms of its first letter, of its second two
     swapped, and of each other first letter followed by its second. */
  function typos(words, word, found) {
    const max = word.length >= 8 ? 2 : 1;
    const first = word[0], second = word[1];
    const runs = [[lower(words, first), after(words, first)]];
    if (first !== second) runs.push([lower(words, second + first), after(words, second + first)]);
    for (let at = 0; at < words.length - 1;) {
      const letter = words[at + 1], end = after(words, letter);
      if (letter !== first) runs.push([lower(words, letter + second), after(words, letter + second)]);
      at = end;
    }
    runs.sort(function (a, b) { return a[0] - b[0]; });  // the terms in the vocabulary's order
    runs.forEach(function (run) {
      near(words, run[0], run[1], word, max).forEach(function (hit) { found.push([hit[0], hit[1] === 1 ? 0.5 : 0.3]); });
    });
  }

  /* [term, factor] of each of a query's words, stop words left out, plurals folded. */
  function expanded(index, text) {
    const qs = words(text).filter(function (w) { return !STOP.has(w); }).map(stem);
    return qs.map(function (word, k) { return expand(index, word, k === qs.length - 1 && !/\s$/.test(text)); });
  }

  /* Ranked documents: [{doc, score}], best first (the best ``max``, or all). ``index.terms``
     holds the postings of every term the query stands for (of a split index: those loaded
     for it, each document as its distance from the one before, ``index.gaps``);
     ``found``, the query's terms (``expanded``'s, found once a query: a split index
     loads its parts by them too). A document's numbers are
     kept in arrays a slot a document, in plain loops: a common word of a large site is
     in tens of thousands of documents, and a first search runs this code cold. */
  function rank(index, found, max) {
    if (!found.length) return [];
    const n = index.n || index.docs.length, gaps = index.gaps ? 1 : 0, count = found.length;
    const scores = new Float64Array(n), hits = new Uint16Array(n);
    const all = new Int32Array(n);  // the documents scored, in the order first found
    let scored = 0, best = null, touched = null;
    for (let k = 0; k < count; k++) {
      const pairs = found[k];
      if (!pairs.length) continue;  // a word of no term: no document has every word
      if (pairs.length === 1) {  // one term: each document is in its postings once
        const postings = index.terms[pairs[0][0]], factor = pairs[0][1];
        const idf = Math.log(1 + n / (postings.length / 2));
        if (scored === 0) {  // the first documents scored: none has a score yet
          for (let i = 0, doc = 0; i < postings.length; i += 2) {
            doc = doc * gaps + postings[i];
            all[scored++] = doc;
            scores[doc] = postings[i + 1] * idf * factor;
            hits[doc] = 1;
          }
          continue;
        }
        for (let i = 0, doc = 0; i < postings.length; i += 2) {
          doc = doc * gaps + postings[i];
          if (hits[doc] === 0) all[scored++] = doc;
          scores[doc] += postings[i + 1] * idf * factor;
          hits[doc] += 1;
        }
        continue;
      }
      if (best === null) {
        best = new Float64Array(n);
        touched = new Int32Array(n);
      }
      let reached = 0;  // a document counts its best term of the word
      for (let p = 0; p < pairs.length; p++) {
        const postings = index.terms[pairs[p][0]], factor = pairs[p][1];
        const idf = Math.log(1 + n / (postings.length / 2));
        for (let i = 0, doc = 0; i < postings.length; i += 2) {
          doc = doc * gaps + postings[i];
          const s = postings[i + 1] * idf * factor;
          if (s > best[doc]) {
            if (best[doc] === 0) touched[reached++] = doc;
            best[doc] = s;
          }
        }
      }
      for (let t = 0; t < reached; t++) {
        const doc = touched[t];
        if (hits[doc] === 0) all[scored++] = doc;
        scores[doc] += best[doc];
        hits[doc] += 1;
        best[doc] = 0;
      }
    }
    let complete = count === 1 ? scored : 0;  // the documents with every word
    for (let t = 0; t < scored && count > 1; t++) if (hits[all[t]] === count) complete += 1;
    if (!complete) for (let t = 0; t < scored; t++) scores[all[t]] *= 0.5;  // none has every word: all count half
    const out = [];
    const result = function (doc) { return { doc: doc, score: scores[doc] }; };
    if (max === undefined) {
      for (let t = 0; t < scored; t++) if (!complete || hits[all[t]] === count) out.push(all[t]);
      return out.sort(function (a, b) { return scores[b] - scores[a] || a - b; }).map(result);
    }
    // the best ``max``, kept in order as the documents come: a higher score first, then a
    // lower number; ``floor``, the score of the last kept once there are ``max``
    let floor = -1;
    for (let t = 0; t < scored && max > 0; t++) {
      const doc = all[t], s = scores[doc];
      if (s < floor || (complete && hits[doc] !== count)) continue;
      if (out.length === max) {
        if (s === floor && doc > out[max - 1]) continue;
        out.pop();
      }
      let at = out.length;
      while (at > 0 && (scores[out[at - 1]] < s || (scores[out[at - 1]] === s && out[at - 1] > doc))) at -= 1;
      out.splice(at, 0, doc);
      if (out.length === max) floor = scores[out[max - 1]];
    }
    return out.map(result);
  }

  /* A result as shown, from its document [lesson's name, heading, url, excerpt]. */
  function described(r, d) {
    return { doc: r.doc, score: r.score, lesson: d[0], heading: d[1], url: d[2], excerpt: d[3] };
  }

  /* Ranked results of a one-file index: [{doc, score, lesson, heading, url, excerpt}]. */
  function query(index, text) {
    return rank(index, expanded(index, text)).map(function (r) {
      const d = index.docs[r.doc];
      return described(r, [index.lessons[d[0]][0], d[1], d[2], d[3]]);
    });
  }

  /* A split index (version 2, site_builder/output/search_files.py): the part holding a
     term's postings is the last whose first term is not after it. */
  function partOf(index, term) {
    let lo = 0, hi = index.terms.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (index.terms[mid][0] <= term) lo = mid; else hi = mid - 1;
    }
    return index.terms[lo];
  }

  /* The best ``max`` results of a split index: ``load(entry)`` gives a Promise of the
     data of the part an entry [.., key, file] names; the parts of the query's terms are
     loaded, then those holding the words of the results shown. */
  function querySplit(index, text, load, max) {
    const view = { words: vocabOf(index), terms: Object.create(null), n: index.n, gaps: true };
    const needed = new Map();  // part's key -> [its entry, the terms wanted of it]
    const found = expanded(index, text);
    found.forEach(function (pairs) {
      pairs.forEach(function (pair) {
        const entry = partOf(index, pair[0]);
        if (!needed.has(entry[1])) needed.set(entry[1], [entry, []]);
        needed.get(entry[1])[1].push(pair[0]);
      });
    });
    return Promise.all(Array.from(needed.values()).map(function (want) {
      return load(want[0]).then(function (part) {
        want[1].forEach(function (term) { view.terms[term] = part[term]; });
      });
    })).then(function () {
      return Promise.all(rank(view, found, max).map(function (r) {
        return load(index.docs[Math.floor(r.doc / index.per)]).then(function (docs) {
          return described(r, docs[r.doc % index.per]);
        });
      }));
    });
  }

  ex.search = { query: query, querySplit: querySplit, words: words, stem: stem, distance: distance };
})();
