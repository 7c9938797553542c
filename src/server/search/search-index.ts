/** The tool search index: BM25 over weighted fields, with boosts for exact and prefix name matches. Built once per isolate. */

import { squash, tokenize } from "./search-tokens.ts";
import type { SearchDocument, SearchOutcome } from "../tools/tool-search.ts";

/** What search reads of one tool. */
// Field weights (BM25F): a word in the name says more than one in a parameter's description.
const WEIGHT = { name: 3, title: 2, hint: 2, description: 1, paramName: 1, paramDescription: 0.5 } as const;
const K1 = 1.2;
const B = 0.75;
/** Added when the query is the tool's name (compared squashed): such a tool always ranks first. */
const EXACT_NAME_BOOST = 1000;
/** Added when the tool's name starts with the query (squashed, 3 characters or more). */
const PREFIX_NAME_BOOST = 8;
/** A query word also matches longer words it begins ("inv" → "invoice"), at this share of their score. */
const PREFIX_TERM_SHARE = 0.5;
const MAX_PREFIX_TERMS = 16;
const MAX_QUERY_TERMS = 32;
/** A word found in more than this share of the tools is common (see search). */
const COMMON_SHARE = 0.9;

interface Posting {
  docs: Int32Array;
  weights: Float32Array;
}

/** A typed array twice as long, the new half filled with `fill`. */
function grow<T extends Int32Array | Float32Array>(array: T, fill: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(array.length * 2);
  bigger.set(array);
  if (fill !== 0) bigger.fill(fill, array.length);
  return bigger;
}

function firstAtLeast(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class SearchIndex {
  readonly #names: string[];
  readonly #terms = new Map<string, number>();
  readonly #postings: Posting[] = [];
  readonly #idf: Float64Array;
  /** K1 × (1 − B + B × length / average length), per document. */
  readonly #norm: Float64Array;
  readonly #sortedTerms: string[];
  /** Squashed names, sorted, with their documents: exact and prefix name matches. */
  readonly #squashed: string[];
  readonly #squashedDocs: Int32Array;
  // Scratch space of one query (queries run one at a time: search is synchronous).
  readonly #scores: Float64Array;
  readonly #seen: Uint32Array;
  readonly #touched: Int32Array;
  #generation = 0;
  #count = 0;

  constructor(documents: readonly SearchDocument[]) {
    const n = documents.length;
    this.#names = documents.map((d) => d.name);
    const lengths = new Float64Array(n);
    // Pass 1: every document's words as term ids, in flat growable arrays (no array per term: an
    // index of 10,000 tools holds some 250,000 words, and small arrays cost more in GC than in use).
    let tokenTerms = new Int32Array(1024);
    let tokenWeights = new Float32Array(1024);
    let tokens = 0;
    const docEnds = new Int32Array(n);
    let documentFrequency = new Int32Array(1024);
    let lastDoc = new Int32Array(1024).fill(-1);
    const add = (doc: number, text: string | undefined, weight: number): void => {
      if (text === undefined) return;
      for (const term of tokenize(text)) {
        let id = this.#terms.get(term);
        if (id === undefined) {
          id = this.#terms.size;
          this.#terms.set(term, id);
          if (id === documentFrequency.length) {
            documentFrequency = grow(documentFrequency, 0);
            lastDoc = grow(lastDoc, -1);
          }
        }
        if (lastDoc[id] !== doc) {
          lastDoc[id] = doc;
          documentFrequency[id] = (documentFrequency[id] as number) + 1;
        }
        if (tokens === tokenTerms.length) {
          tokenTerms = grow(tokenTerms, 0);
          tokenWeights = grow(tokenWeights, 0);
        }
        tokenTerms[tokens] = id;
        tokenWeights[tokens++] = weight;
        lengths[doc] = (lengths[doc] as number) + weight;
      }
    };
    documents.forEach((document, doc) => {
      add(doc, document.name, WEIGHT.name);
      add(doc, document.title, WEIGHT.title);
      add(doc, document.hint, WEIGHT.hint);
      add(doc, document.description, WEIGHT.description);
      for (const param of document.params) {
        add(doc, param.name, WEIGHT.paramName);
        add(doc, param.description, WEIGHT.paramDescription);
      }
      docEnds[doc] = tokens;
    });
    // Pass 2: postings of all terms in one pair of arrays, each term a slice (by document, in order).
    const terms = this.#terms.size;
    const offsets = new Int32Array(terms + 1);
    for (let id = 0; id < terms; id++) offsets[id + 1] = (offsets[id] as number) + (documentFrequency[id] as number);
    const postingDocs = new Int32Array(offsets[terms] as number);
    const postingWeights = new Float32Array(offsets[terms] as number);
    const next = offsets.slice(0, terms);
    lastDoc.fill(-1);
    for (let doc = 0, token = 0; doc < n; doc++) {
      for (const end = docEnds[doc] as number; token < end; token++) {
        const id = tokenTerms[token] as number;
        if (lastDoc[id] !== doc) {
          lastDoc[id] = doc;
          postingDocs[next[id] as number] = doc;
          next[id] = (next[id] as number) + 1;
        }
        const at = (next[id] as number) - 1;
        postingWeights[at] = (postingWeights[at] as number) + (tokenWeights[token] as number);
      }
    }
    this.#idf = new Float64Array(terms);
    for (let id = 0; id < terms; id++) {
      const from = offsets[id] as number;
      const to = offsets[id + 1] as number;
      this.#postings.push({ docs: postingDocs.subarray(from, to), weights: postingWeights.subarray(from, to) });
      this.#idf[id] = Math.log(1 + (n - (to - from) + 0.5) / (to - from + 0.5));
    }
    const average = n === 0 ? 1 : lengths.reduce((a, b) => a + b, 0) / n || 1;
    this.#norm = lengths.map((length) => K1 * (1 - B + (B * length) / average));
    this.#sortedTerms = [...this.#terms.keys()].sort();
    const byName = this.#names.map((name, doc) => [squash(name), doc] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    this.#squashed = byName.map(([name]) => name);
    this.#squashedDocs = Int32Array.from(byName.map(([, doc]) => doc));
    this.#scores = new Float64Array(n);
    this.#seen = new Uint32Array(n);
    this.#touched = new Int32Array(n);
  }

  get size(): number {
    return this.#names.length;
  }

  /**
   * The best `limit` documents for a query, among those `allowed` (all when undefined), and how
   * many matched in all. A query matches a document by its words (BM25), by being its name, or by
   * beginning its name. A word with no match of its own matches the words it begins ("inv" →
   * "invoice").
   */
  search(query: string, limit: number, allowed?: Uint8Array): SearchOutcome {
    if (++this.#generation === 0xffffffff) {
      this.#seen.fill(0);
      this.#generation = 1;
    }
    this.#count = 0;
    const words = [...new Set(tokenize(query))].slice(0, MAX_QUERY_TERMS);
    // A word nearly every tool has ("tool" in a catalogue of tool_… names) tells them apart by almost
    // nothing (idf near 0) but costs a pass over every tool: it is left out when another word can decide.
    const common = (id: number | undefined) => id !== undefined && (this.#postings[id] as Posting).docs.length > COMMON_SHARE * this.#names.length;
    const ids = words.map((word) => this.#terms.get(word));
    const skipCommon = ids.some((id) => id === undefined || !common(id));
    for (const [i, word] of words.entries()) {
      const id = ids[i];
      if (id !== undefined) {
        if (!(skipCommon && common(id))) this.#scoreTerm(id, 1);
        continue;
      }
      if (word.length < 3) continue;
      for (let i = firstAtLeast(this.#sortedTerms, word), expanded = 0; i < this.#sortedTerms.length && expanded < MAX_PREFIX_TERMS; i++, expanded++) {
        const term = this.#sortedTerms[i] as string;
        if (!term.startsWith(word)) break;
        this.#scoreTerm(this.#terms.get(term) as number, PREFIX_TERM_SHARE);
      }
    }
    const whole = squash(query);
    if (whole.length > 0) {
      for (let i = firstAtLeast(this.#squashed, whole); i < this.#squashed.length; i++) {
        const name = this.#squashed[i] as string;
        if (name === whole) this.#add(this.#squashedDocs[i] as number, EXACT_NAME_BOOST);
        else if (whole.length >= 3 && name.startsWith(whole)) this.#add(this.#squashedDocs[i] as number, PREFIX_NAME_BOOST);
        else break;
      }
    }
    return this.#best(limit, allowed);
  }

  #add(doc: number, score: number): void {
    if (this.#seen[doc] !== this.#generation) {
      this.#seen[doc] = this.#generation;
      this.#scores[doc] = score;
      this.#touched[this.#count++] = doc;
    } else {
      this.#scores[doc] = (this.#scores[doc] as number) + score;
    }
  }

  /** Adds one term's BM25 contribution to every document that has it: the hot loop, on typed arrays only. */
  #scoreTerm(id: number, share: number): void {
    const { docs, weights } = this.#postings[id] as Posting;
    const idf = (this.#idf[id] as number) * share * (K1 + 1);
    const scores = this.#scores;
    const seen = this.#seen;
    const touched = this.#touched;
    const norm = this.#norm;
    const generation = this.#generation;
    let count = this.#count;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i] as number;
      const tf = weights[i] as number;
      const score = (idf * tf) / (tf + (norm[doc] as number));
      if (seen[doc] !== generation) {
        seen[doc] = generation;
        scores[doc] = score;
        touched[count++] = doc;
      } else {
        scores[doc] = (scores[doc] as number) + score;
      }
    }
    this.#count = count;
  }

  /** The best `limit` of the touched documents, kept in a heap whose root is the worst kept; no allocation per match. */
  #best(limit: number, allowed: Uint8Array | undefined): SearchOutcome {
    const names = this.#names;
    const scores = this.#scores;
    const heap = new Int32Array(Math.max(0, Math.min(limit, this.#count)));
    // True when document a ranks after document b (lower score; equal scores: later name).
    const worse = (a: number, b: number): boolean => {
      const sa = scores[a] as number;
      const sb = scores[b] as number;
      return sa !== sb ? sa < sb : (names[a] as string) > (names[b] as string);
    };
    let size = 0;
    let matched = 0;
    for (let i = 0; i < this.#count; i++) {
      const doc = this.#touched[i] as number;
      if (!((scores[doc] as number) > 0) || (allowed !== undefined && allowed[doc] !== 1)) continue;
      matched++;
      if (size < heap.length) {
        // Sift up: the new document rises while it is worse than its parent.
        let at = size++;
        while (at > 0) {
          const parent = (at - 1) >> 1;
          if (!worse(doc, heap[parent] as number)) break;
          heap[at] = heap[parent] as number;
          at = parent;
        }
        heap[at] = doc;
      } else if (size > 0 && worse(heap[0] as number, doc)) {
        // Replace the worst kept, then sift it down.
        let at = 0;
        for (;;) {
          const left = at * 2 + 1;
          if (left >= size) break;
          const right = left + 1;
          const child = right < size && worse(heap[right] as number, heap[left] as number) ? right : left;
          if (!worse(heap[child] as number, doc)) break;
          heap[at] = heap[child] as number;
          at = child;
        }
        heap[at] = doc;
      }
    }
    const hits = Array.from(heap.subarray(0, size), (doc) => ({ doc, score: scores[doc] as number }));
    hits.sort((a, b) => (worse(a.doc, b.doc) ? 1 : -1));
    return { matched, hits };
  }
}
