/** The tool search index: BM25 over weighted fields, with boosts for exact and prefix name matches. Built once per isolate. */

import { squash, tokenize } from "./search-tokens.ts";

/** What search reads of one tool. */
export interface SearchDocument {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  /** A host hint such as `_meta["anthropic/searchHint"]`: extra words the tool answers to. */
  hint?: string | undefined;
  /** Parameter names and descriptions, from the input schema's properties. */
  params: readonly { name: string; description?: string | undefined }[];
}

export interface SearchHit {
  /** The document's position in the indexed list. */
  doc: number;
  score: number;
}

export interface SearchOutcome {
  /** How many documents matched at all (only the best `limit` are in `hits`). */
  matched: number;
  /** Best first; equal scores in name order. */
  hits: SearchHit[];
}

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

interface Posting {
  docs: Int32Array;
  weights: Float32Array;
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

/** Orders hits best first, equal scores by name (code units), so that results never depend on chance. */
function better(a: SearchHit, b: SearchHit, names: readonly string[]): boolean {
  if (a.score !== b.score) return a.score > b.score;
  return (names[a.doc] as string) < (names[b.doc] as string);
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

  constructor(documents: readonly SearchDocument[]) {
    const n = documents.length;
    this.#names = documents.map((d) => d.name);
    const lengths = new Float64Array(n);
    const docs: number[][] = [];
    const weights: number[][] = [];
    documents.forEach((document, doc) => {
      const tf = new Map<string, number>();
      const add = (text: string | undefined, weight: number): void => {
        if (text === undefined) return;
        for (const term of tokenize(text)) {
          tf.set(term, (tf.get(term) ?? 0) + weight);
          lengths[doc] = (lengths[doc] as number) + weight;
        }
      };
      add(document.name, WEIGHT.name);
      add(document.title, WEIGHT.title);
      add(document.hint, WEIGHT.hint);
      add(document.description, WEIGHT.description);
      for (const param of document.params) {
        add(param.name, WEIGHT.paramName);
        add(param.description, WEIGHT.paramDescription);
      }
      for (const [term, weight] of tf) {
        let id = this.#terms.get(term);
        if (id === undefined) {
          id = docs.length;
          this.#terms.set(term, id);
          docs.push([]);
          weights.push([]);
        }
        (docs[id] as number[]).push(doc);
        (weights[id] as number[]).push(weight);
      }
    });
    this.#idf = new Float64Array(docs.length);
    docs.forEach((list, id) => {
      this.#postings.push({ docs: Int32Array.from(list), weights: Float32Array.from(weights[id] as number[]) });
      this.#idf[id] = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    });
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
   * beginning its name.
   */
  search(query: string, limit: number, allowed?: (doc: number) => boolean): SearchOutcome {
    if (++this.#generation === 0xffffffff) {
      this.#seen.fill(0);
      this.#generation = 1;
    }
    let touched = 0;
    const add = (doc: number, score: number): void => {
      if (this.#seen[doc] !== this.#generation) {
        this.#seen[doc] = this.#generation;
        this.#scores[doc] = 0;
        this.#touched[touched++] = doc;
      }
      this.#scores[doc] = (this.#scores[doc] as number) + score;
    };
    const scoreTerm = (id: number, share: number): void => {
      const posting = this.#postings[id] as Posting;
      const idf = (this.#idf[id] as number) * share;
      for (let i = 0; i < posting.docs.length; i++) {
        const doc = posting.docs[i] as number;
        const tf = posting.weights[i] as number;
        add(doc, (idf * tf * (K1 + 1)) / (tf + (this.#norm[doc] as number)));
      }
    };

    const words = [...new Set(tokenize(query))].slice(0, MAX_QUERY_TERMS);
    for (const word of words) {
      const id = this.#terms.get(word);
      if (id !== undefined) scoreTerm(id, 1);
      if (word.length < 3) continue;
      let expanded = 0;
      for (let i = firstAtLeast(this.#sortedTerms, word); i < this.#sortedTerms.length && expanded < MAX_PREFIX_TERMS; i++) {
        const term = this.#sortedTerms[i] as string;
        if (!term.startsWith(word)) break;
        if (term === word) continue;
        scoreTerm(this.#terms.get(term) as number, PREFIX_TERM_SHARE);
        expanded++;
      }
    }
    const whole = squash(query);
    if (whole.length > 0) {
      for (let i = firstAtLeast(this.#squashed, whole); i < this.#squashed.length; i++) {
        const name = this.#squashed[i] as string;
        if (name === whole) add(this.#squashedDocs[i] as number, EXACT_NAME_BOOST);
        else if (whole.length >= 3 && name.startsWith(whole)) add(this.#squashedDocs[i] as number, PREFIX_NAME_BOOST);
        else break;
      }
    }

    // The best `limit` in a small heap, worst at the top: O(matches × log limit).
    const heap: SearchHit[] = [];
    let matched = 0;
    for (let i = 0; i < touched; i++) {
      const doc = this.#touched[i] as number;
      const score = this.#scores[doc] as number;
      if (!(score > 0) || (allowed && !allowed(doc))) continue;
      matched++;
      const hit = { doc, score };
      if (heap.length < limit) {
        heap.push(hit);
        this.#siftUp(heap, heap.length - 1);
      } else if (limit > 0 && better(hit, heap[0] as SearchHit, this.#names)) {
        heap[0] = hit;
        this.#siftDown(heap, 0);
      }
    }
    heap.sort((a, b) => (better(a, b, this.#names) ? -1 : 1));
    return { matched, hits: heap };
  }

  // A min-heap by "better": the root is the worst hit kept.
  #siftUp(heap: SearchHit[], index: number): void {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!better(heap[parent] as SearchHit, heap[index] as SearchHit, this.#names)) break;
      [heap[parent], heap[index]] = [heap[index] as SearchHit, heap[parent] as SearchHit];
      index = parent;
    }
  }

  #siftDown(heap: SearchHit[], index: number): void {
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let worst = index;
      if (left < heap.length && better(heap[worst] as SearchHit, heap[left] as SearchHit, this.#names)) worst = left;
      if (right < heap.length && better(heap[worst] as SearchHit, heap[right] as SearchHit, this.#names)) worst = right;
      if (worst === index) return;
      [heap[worst], heap[index]] = [heap[index] as SearchHit, heap[worst] as SearchHit];
      index = worst;
    }
  }
}
