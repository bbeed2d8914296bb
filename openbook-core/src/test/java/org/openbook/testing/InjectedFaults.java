package org.openbook.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A crash of the writing process, injected into a store's storage calls (a store-level fault
 * hook): the Lucene store's directory operations, the Solr store's SolrJ requests. Calls are
 * numbered from 0 in the order the store makes them; call {@link #failAt()} fails, and the writer
 * is dead from then on (every later call fails too), as if the process had been killed there.
 *
 * <p>{@link When#BEFORE} kills the writer before the call reaches storage; {@link When#AFTER}
 * lets the call take effect and kills the writer before it sees the reply (a lost answer). With
 * {@link #counting()} nothing fails and the calls are only counted, to learn how many call
 * indexes a run has. Thread-safe.
 */
public final class InjectedFaults {

  /** Where, relative to the failing call, the writer dies. */
  public enum When { BEFORE, AFTER }

  /** Thrown by the hook: the writer process is dead. */
  public static final class Killed extends IOException {
    Killed(String message) {
      super(message);
    }
  }

  private final int failAt;
  private final When when;
  private final List<String> calls = new ArrayList<>();
  private boolean dead;
  private boolean armed;

  private InjectedFaults(int failAt, When when) {
    this.failAt = failAt;
    this.when = when;
  }

  /** Kills the writer at call {@code failAt} (0-based, counted from {@link #arm()}). */
  public static InjectedFaults killAt(int failAt, When when) {
    if (failAt < 0) {
      throw new IllegalArgumentException("failAt must be >= 0, was " + failAt);
    }
    return new InjectedFaults(failAt, when);
  }

  /** Counts calls, never fails. */
  public static InjectedFaults counting() {
    return new InjectedFaults(-1, When.BEFORE);
  }

  /** Starts counting (calls before, e.g. while opening the store, neither count nor fail). */
  public synchronized InjectedFaults arm() {
    armed = true;
    return this;
  }

  /**
   * Called by the hook before each storage call.
   *
   * @return the call's index, to pass to {@link #after}; -1 when not armed
   * @throws Killed if the writer is dead or dies now
   */
  public synchronized int before(String what) throws Killed {
    if (dead) {
      throw new Killed("writer is dead (killed at call " + failAt + "); refused: " + what);
    }
    if (!armed) {
      return -1;
    }
    int index = calls.size();
    calls.add(what);
    if (index == failAt && when == When.BEFORE) {
      dead = true;
      throw new Killed("killed before call " + index + ": " + what);
    }
    return index;
  }

  /**
   * Called by the hook after a storage call returned.
   *
   * @throws Killed if this was the failing call and the writer dies before seeing the reply
   */
  public synchronized void after(int index, String what) throws Killed {
    if (index >= 0 && index == failAt && when == When.AFTER) {
      dead = true;
      throw new Killed("killed after call " + index + " took effect: " + what);
    }
  }

  /** Number of storage calls seen since {@link #arm()}. */
  public synchronized int calls() {
    return calls.size();
  }

  /** The calls seen since {@link #arm()}, in order, for failure messages. */
  public synchronized List<String> log() {
    return List.copyOf(calls);
  }

  /** Whether the writer was killed. */
  public synchronized boolean fired() {
    return dead;
  }

  /** The index of the call that kills, -1 for a counting instance. */
  public int failAt() {
    return failAt;
  }

  @Override
  public String toString() {
    return failAt < 0 ? "counting" : "kill " + when.name().toLowerCase() + " call " + failAt;
  }
}
