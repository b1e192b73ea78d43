import ChimeCore
import HeapModule

/// The scheduler's bounded in-memory view of the soonest schedule keys.
///
/// The store's index is the truth; this window holds at most about `2 × capacity` keys so memory
/// does not grow with the number of pending requests. Invariant: every stored key `<= horizon`
/// is in the window (or is being fired); when `horizon` is `.complete` every stored key is.
/// Keys may be stale (their request was replaced or removed): the store says so when one is
/// fired, and it is dropped then. Pure state: the driver feeds it events and does the I/O.
struct ScheduleWindow {
  enum Horizon: Equatable {
    /// Nothing loaded yet: the store may hold any key.
    case empty
    /// Every stored key `<=` this one is in the window.
    case upTo(ScheduleKey)
    /// Every stored key is in the window.
    case complete
  }

  let capacity: Int
  private(set) var heap = Heap<ScheduleKey>()
  private(set) var horizon: Horizon = .empty
  /// Keys added while a refill read was running, above the old horizon: the read may have
  /// missed them, so they are reconsidered against the new horizon.
  private var addedDuringRefill: [ScheduleKey] = []
  private(set) var refillInFlight = false

  init(capacity: Int) {
    precondition(capacity > 0)
    self.capacity = capacity
  }

  var count: Int { heap.count }
  var earliest: ScheduleKey? { heap.min }

  private func covers(_ key: ScheduleKey) -> Bool {
    switch horizon {
    case .empty: false
    case .upTo(let h): key <= h
    case .complete: true
    }
  }

  /// A key was committed to the store (added, or advanced after a fire).
  mutating func insert(_ key: ScheduleKey) {
    if covers(key) {
      heap.insert(key)
      trimIfNeeded()
    } else if refillInFlight {
      addedDuringRefill.append(key)
    }
  }

  /// Removes and returns keys due at or before `now`, at most `limit`.
  mutating func popDue(now: Instant, limit: Int) -> [ScheduleKey] {
    var due: [ScheduleKey] = []
    while due.count < limit, let first = heap.min, first.due <= now {
      due.append(heap.removeMin())
    }
    return due
  }

  /// Whether the driver should start a refill read, and from which key (nil = from the start).
  /// Refills when the window runs low and the store may hold keys beyond the horizon.
  func refillNeeded() -> (needed: Bool, after: ScheduleKey?) {
    guard !refillInFlight else { return (false, nil) }
    switch horizon {
    case .complete: return (false, nil)
    case .empty: return (true, nil)
    case .upTo(let h): return (heap.count < max(1, capacity / 4), h)
    }
  }

  mutating func beginRefill() {
    refillInFlight = true
    addedDuringRefill.removeAll()
  }

  /// The refill read returned `keys` (ascending, at most `limit`, all after the old horizon).
  mutating func finishRefill(_ keys: [ScheduleKey], limit: Int) {
    refillInFlight = false
    for key in keys { heap.insert(key) }
    if keys.count < limit {
      horizon = .complete
    } else if let last = keys.last {
      horizon = .upTo(last)
    }
    let late = addedDuringRefill
    addedDuringRefill.removeAll()
    for key in late where covers(key) { heap.insert(key) }
    trimIfNeeded()
  }

  /// A refill read failed; the next `refillNeeded()` asks again.
  mutating func failRefill() {
    refillInFlight = false
    // Keys added meanwhile are in the store; a later refill from the unchanged horizon finds them.
    addedDuringRefill.removeAll()
  }

  private mutating func trimIfNeeded() {
    guard heap.count > 2 * capacity else { return }
    while heap.count > capacity { _ = heap.removeMax() }
    if let max = heap.max { horizon = .upTo(max) }
  }
}
