#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Array where Element: Sendable {
    /// `transform` of every element, computed on all cores (``Workers``), in the array's order.
    ///
    /// Output does not depend on scheduling: each result is stored at its element's index.
    func parallelMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
        let slots = ResultSlots<T>(count: count)
        Workers.perform(iterations: count) { k in
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
    private let lock = Lock()

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

extension Array where Element == UInt8 {
    /// `rows` rows of `rowBytes` bytes each, written on all cores a band of rows at a time:
    /// `write` gets a band's rows and the start of row 0, and must write every byte of those
    /// rows, and only those. Bands are `bandRows` rows (the last may be fewer), or by default
    /// a few a core.
    static func parallelRows(_ rows: Int, rowBytes: Int, bandRows: Int? = nil,
                             write: @Sendable (Range<Int>, UnsafeMutableRawPointer) -> Void) -> [UInt8] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // A few bands a core, so a core slowed by another process does not hold the rest up.
        let bandRows = Swift.max(1, bandRows ?? (rows + 4 * cores - 1) / (4 * cores))
        let bands = (rows + bandRows - 1) / bandRows
        return [UInt8].written(rows * rowBytes) { buffer in
            let start = RowsStart(pointer: UnsafeMutableRawPointer(buffer.baseAddress!))
            Workers.perform(iterations: bands) { band in
                write(band * bandRows..<Swift.min(rows, (band + 1) * bandRows), start.pointer)
            }
        }
    }

    /// `count` bytes, every one written by `write`, which gets their buffer (not called for
    /// none). `Array(unsafeUninitializedCapacity: 0)` stores its count in the storage of
    /// the shared empty array, which other threads read at the same time: ThreadSanitizer
    /// reports that as a data race, so no buffer is asked for when there is nothing to write.
    static func written(_ count: Int, by write: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> [UInt8] {
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            write(buffer)
            initialized = count
        }
    }
}

/// The start of a buffer whose disjoint bands of rows parallel tasks write.
///
/// `@unchecked Sendable` is safe here: each task writes only its own rows, and the buffer
/// outlives the tasks (``Array/parallelRows(_:rowBytes:bandRows:write:)`` waits for them).
private struct RowsStart: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

extension Workers {
    /// `body(k)` for every `k` in `0..<iterations`, on up to one thread a core, this one among
    /// them, in no set order; returns when every call has. This thread makes every call where
    /// no other starts, on a thread of ``start(_:_:)``, and inside another `perform` (as
    /// libdispatch runs a nested `concurrentPerform` on the task's own thread), so nested
    /// work does not start more threads than there are cores.
    static func perform(iterations: Int, _ body: @Sendable (Int) -> Void) {
        let helpers = onWorker ? 0
            : min(iterations, ProcessInfo.processInfo.activeProcessorCount) - 1
        guard helpers > 0 else {
            for k in 0..<max(0, iterations) { body(k) }
            return
        }
        onWorker = true
        defer { onWorker = false }
        withoutActuallyEscaping(body) { body in
            let next = NextIndex(below: iterations)
            let run: @Sendable () -> Void = { while let k = next.take() { body(k) } }
            let started = start(helpers, run)
            run()
            started.join()
        }
    }
}

/// The indices `0..<bound`, taken one at a time by concurrent workers.
///
/// `@unchecked Sendable` is safe here: `next` is read and written only while holding `lock`.
private final class NextIndex: @unchecked Sendable {
    private let bound: Int
    private var next = 0
    private let lock = Lock()

    init(below bound: Int) { self.bound = bound }

    /// The next index not taken yet; nil when all are.
    func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < bound else { return nil }
        next += 1
        return next - 1
    }
}
