import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `transform` of every element, computed on all cores, in the array's order.
    ///
    /// Output does not depend on scheduling: each result is stored at its element's index.
    func parallelMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
        let slots = ResultSlots<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { k in
            slots.set(k, transform(self[k]))
        }
        return slots.values
    }
}

/// A fixed number of result slots that concurrent workers fill by index.
///
/// `@unchecked Sendable` is safe here: the only stored state, `items`, is read and
/// written solely while holding `lock`, and the values put in are `Sendable`.
private final class ResultSlots<T: Sendable>: @unchecked Sendable {
    private var items: [T?]
    private let lock = NSLock()

    init(count: Int) { items = Array(repeating: nil, count: count) }

    func set(_ k: Int, _ value: T) {
        lock.lock()
        items[k] = value
        lock.unlock()
    }

    /// Every value in index order; every slot must have been set.
    var values: [T] {
        lock.lock()
        defer { lock.unlock() }
        return items.compactMap { $0 }
    }
}
