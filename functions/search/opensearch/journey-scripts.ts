import { TIME_FIELD } from './stored-source';

/**
 * The Painless of the analyses' scripted_metric aggregations (event-analyses.ts), one pass over the
 * window's events on the shards. Which of the analysis' queries (funnel steps, retention's first
 * and returning events) an event matches arrives as its score: the query gives query k a
 * constant_score of 2^k, so `_score` is the bitmask of the queries it matched (sums of distinct
 * powers of two are exact in a float up to 2^24). Painless never evaluates a query itself.
 *
 * A window too big for one pass's memory is read in several, each over a range of actors that its
 * query selects (analysis-passes.ts), so the scripts see only their pass's events.
 *
 * The rules are those of analyses/actor-journeys.ts (and DuckDB's SQL): events ordered by time,
 * then id; a step is the first event of that step strictly after the previous step's event, at
 * most `params.window` after entering; a retention cohort is the period of the actor's first
 * first_event, and it returned in each later period holding one of its returning events.
 */

/** Shared by both map scripts: the event's actor (the query keeps only events that have one), time and mask. */
const ACTOR = `
  def values = doc[params.actor];
  String actor = values.size() == 0 ? null : values.get(0);
  int mask = (int) Math.round(_score);
  long time = doc['${TIME_FIELD}'].value.toInstant().toEpochMilli();`;

/**
 * Painless stops a script after 1,000,000 loop iterations, counted per function call. So no loop
 * here runs over all of a pass's events in one call: a script's own body loops over actors (a pass
 * holds at most ACTORS_PER_PASS of them, analysis-passes.ts), and loops over one actor's events run
 * in helper functions, over chunks of at most CHUNK events each.
 */
const CHUNK = 500_000;

/**
 * Funnel state: per actor, its events packed as time × 2^10 + mask (MAX_FUNNEL_STEPS is 10), sorted
 * on each shard. Ids are not read: a keyword of a million distinct values costs more to read than
 * all else (620 of 920 ms a pass at 1 M, measured). So an actor with two events in the same
 * millisecond, whose order is its ids', is named in `ambiguous` for the caller to follow by id.
 *
 * Of the events that match the first step alone, the walk only ever reads the earliest (the entry;
 * it never retries a later one), so the map keeps just that one, in the slot at the head of the
 * actor's list (Long.MAX_VALUE while there is none): 15 % less time a pass at 5 M, where POSTs,
 * the bench's first step, are the commonest events. Dropping the rest drops no tie that could
 * change an answer: two such events in one millisecond read the same either way.
 */
export const FUNNEL_SCRIPTS = {
  init_script: 'state.actors = new HashMap();',
  map_script: `${ACTOR}
  if (actor != null) {
    List events = state.actors.get(actor);
    if (events == null) { events = new ArrayList(); events.add(Long.MAX_VALUE); state.actors.put(actor, events); }
    long packed = time * 1024L + mask;
    if (mask != 1) { events.add(packed); } else if (packed < events.get(0)) { events.set(0, packed); }
  }`,
  // Shard results are serialised even on one node: one long[] of every actor's sorted events, their
  // names and where each one's run ends travel as three values, not a list per actor (280 ms less at 1 M).
  combine_script: `
  List all = new ArrayList();
  int[] ends = new int[state.actors.size()];
  List names = new ArrayList();
  for (def entry : state.actors.entrySet()) {
    List own = entry.getValue();
    if (own.get(0) == Long.MAX_VALUE) { own.remove(0); }
    Collections.sort(own);
    all.addAll(own);
    ends[names.size()] = all.size();
    names.add(entry.getKey());
  }
  return ['names': names, 'ends': ends, 'events': all.stream().mapToLong(e -> e).toArray()];`,
  // Per step k: how many actors reached it (reached[k]) and each one's time from step k - 1 (gaps[k]).
  reduce_script: `
  boolean tieIn(long[] events, int from, int to) {
    for (int i = from + 1; i < to; i++) { if (events[i] >> 10 == events[i - 1] >> 10) { return true; } }
    return false;
  }
  boolean hasTie(long[] events, int from, int to) {
    for (int at = from; at < to; at += ${CHUNK}) {
      int end = to < at + ${CHUNK} ? to : at + ${CHUNK};
      if (tieIn(events, at == from ? from : at - 1, end)) { return true; }
    }
    return false;
  }
  int firstIn(long[] events, int at, int to, long bit) {
    while (at < to && (events[at] & bit) == 0) { at++; }
    return at;
  }
  int first(long[] events, int at, int to, long bit) {
    while (at < to) {
      int end = to < at + ${CHUNK} ? to : at + ${CHUNK};
      int found = firstIn(events, at, end, bit);
      if (found < end) { return found; }
      at = end;
    }
    return to;
  }
  void walk(String actor, long[] events, int from, int to, long window, long[] reached, List gaps, List ambiguous) {
    if (hasTie(events, from, to)) { ambiguous.add(actor); return; }
    int at = first(events, from, to, 1L);
    if (at == to) { return; }
    long previous = events[at] >> 10;
    long entered = previous;
    reached[0]++;
    for (int k = 1; k < reached.length; k++) {
      int next = first(events, at + 1, to, 1L << k);
      if (next == to || (events[next] >> 10) - entered > window) { return; }
      long time = events[next] >> 10;
      reached[k]++;
      gaps.get(k).add(time - previous);
      previous = time;
      at = next;
    }
  }
  void countNames(List names, Map seen) {
    for (def name : names) { seen.put(name, seen.getOrDefault(name, 0) + 1); }
  }
  void append(List events, def source, int from, int to) {
    for (int e = from; e < to; e++) { events.add(source[e]); }
  }
  void walkShard(def shard, Map seen, Map spread, long window, long[] reached, List gaps, List ambiguous) {
    int from = 0;
    for (int i = 0; i < shard.ends.length; i++) {
      String actor = shard.names.get(i);
      int to = shard.ends[i];
      if (seen.get(actor) == 1) { walk(actor, shard.events, from, to, window, reached, gaps, ambiguous); }
      else { append(spread.computeIfAbsent(actor, name -> new ArrayList()), shard.events, from, to); }
      from = to;
    }
  }
  long[] reached = new long[params.steps];
  List gaps = new ArrayList();
  for (int k = 0; k < params.steps; k++) { gaps.add(new ArrayList()); }
  List ambiguous = new ArrayList();
  Map seen = new HashMap();
  for (def shard : states) { if (shard != null) { countNames(shard.names, seen); } }
  Map spread = new HashMap();
  for (def shard : states) { if (shard != null) { walkShard(shard, seen, spread, params.window, reached, gaps, ambiguous); } }
  for (def entry : spread.entrySet()) {
    List own = entry.getValue();
    Collections.sort(own);
    long[] events = own.stream().mapToLong(e -> e).toArray();
    walk(entry.getKey(), events, 0, events.length, params.window, reached, gaps, ambiguous);
  }
  return ['reached': reached, 'gaps': gaps, 'ambiguous': ambiguous];`,
} as const;

/** Retention state: per actor, its first first_event time and the period indices it returned in. */
export const RETENTION_SCRIPTS = {
  init_script: 'state.actors = new HashMap();',
  map_script: `${ACTOR}
  if (actor != null) {
    def seen = state.actors.get(actor);
    if (seen == null) { seen = new def[] {Long.MAX_VALUE, new HashSet()}; state.actors.put(actor, seen); }
    if ((mask & 1) != 0 && time < seen[0]) { seen[0] = time; }
    if ((mask & 2) != 0) {
      List starts = params.starts;
      int low = 0;
      int high = starts.size() - 1;
      while (low < high) { int middle = (low + high + 1) >> 1; if (starts.get(middle) <= time) { low = middle; } else { high = middle - 1; } }
      if (starts.get(0) <= time) { seen[1].add(low); }
    }
  }`,
  combine_script: `
  int copy(Set periods, int[] into, int at) {
    for (def period : periods) { into[at++] = period; }
    return at;
  }
  int total = 0;
  for (def seen : state.actors.values()) { total += seen[1].size(); }
  long[] firsts = new long[state.actors.size()];
  int[] ends = new int[firsts.length];
  int[] periods = new int[total];
  List names = new ArrayList();
  int at = 0;
  for (def entry : state.actors.entrySet()) {
    firsts[names.size()] = entry.getValue()[0];
    at = copy(entry.getValue()[1], periods, at);
    ends[names.size()] = at;
    names.add(entry.getKey());
  }
  return ['names': names, 'firsts': firsts, 'ends': ends, 'periods': periods];`,
  // [cohort, offset, actors]: offset 0 is the cohort's size, 1…periods those that returned that many periods later.
  reduce_script: `
  void addPeriods(Set periods, def source, int from, int to) {
    for (int e = from; e < to; e++) { periods.add(source[e]); }
  }
  void mergeShard(def shard, Map firsts, Map returns) {
    int from = 0;
    for (int i = 0; i < shard.ends.length; i++) {
      String actor = shard.names.get(i);
      def known = firsts.get(actor);
      if (known == null || shard.firsts[i] < known) { firsts.put(actor, shard.firsts[i]); }
      addPeriods(returns.computeIfAbsent(actor, name -> new HashSet()), shard.periods, from, shard.ends[i]);
      from = shard.ends[i];
    }
  }
  int periodOf(List starts, long time) {
    int low = 0;
    int high = starts.size() - 1;
    while (low < high) { int middle = (low + high + 1) >> 1; if (starts.get(middle) <= time) { low = middle; } else { high = middle - 1; } }
    return low;
  }
  void countReturns(Map counts, int cohort, Set periods, int last) {
    for (def period : periods) {
      int offset = period - cohort;
      if (offset >= 1 && offset <= last) { String key = cohort + ':' + offset; counts.put(key, counts.getOrDefault(key, 0) + 1); }
    }
  }
  Map firsts = new HashMap();
  Map returns = new HashMap();
  for (def shard : states) { if (shard != null) { mergeShard(shard, firsts, returns); } }
  List starts = params.starts;
  Map counts = new HashMap();
  for (def entry : firsts.entrySet()) {
    long first = entry.getValue();
    if (first == Long.MAX_VALUE || first < starts.get(0)) { continue; }
    int cohort = periodOf(starts, first);
    String size = cohort + ':0';
    counts.put(size, counts.getOrDefault(size, 0) + 1);
    countReturns(counts, cohort, returns.get(entry.getKey()), params.periods);
  }
  return counts;`,
} as const;
