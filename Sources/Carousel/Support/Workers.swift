#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads the run starts itself for work shared out over the cores, where Dispatch's pool
/// was used before.
///
/// When no thread can be had (the address space used up under `ulimit -v`), Dispatch tries
/// again every second, for ever, and the run hung without a word, deaf to SIGTERM. Here
/// `pthread_create` says so, and the work goes on with the threads there are: on the calling
/// thread alone, or, for the GIF encoder, which needs one thread beside the writer, with a
/// line saying why the run stopped.
package enum Workers {
    /// The threads ``start(_:_:)`` started, to wait for with ``join()``.
    package struct Started {
        fileprivate let threads: [pthread_t]

        /// How many threads started.
        package var count: Int { threads.count }

        /// Waits for every thread to end.
        package func join() {
            for thread in threads { pthread_join(thread, nil) }
        }
    }

    /// Starts `count` threads, each running `body`, or fewer where the system gives no more.
    /// A thread started here that runs ``perform(iterations:_:)`` makes every call itself, as
    /// the cores are taken already.
    package static func start(_ count: Int, _ body: @escaping @Sendable () -> Void) -> Started {
        var threads: [pthread_t] = []
        // A thread starts with its creator's signal mask: the ending signals are held back
        // while the threads are made, so that none of them takes one (``EndingSignals``).
        EndingSignals.holding {
            for _ in 0..<max(0, count) {
                let box = Unmanaged.passRetained(Body(body)).toOpaque()
                #if canImport(Darwin)
                var thread: pthread_t? = nil
                #else
                var thread = pthread_t()
                #endif
                // The start routine's argument is optional on Linux and not on Darwin.
                let status = pthread_create(&thread, nil, { argument in
                    let body = Unmanaged<Body>.fromOpaque((argument as UnsafeMutableRawPointer?)!).takeRetainedValue()
                    Workers.onWorker = true
                    body.run()
                    return nil
                }, box)
                guard status == 0 else {
                    Unmanaged<Body>.fromOpaque(box).release()
                    break
                }
                #if canImport(Darwin)
                threads.append(thread!)
                #else
                threads.append(thread)
                #endif
            }
        }
        return Started(threads: threads)
    }

    /// Whether this thread makes every call of a ``perform(iterations:_:)`` itself: it is one
    /// of ``start(_:_:)``'s, or inside another `perform`.
    static var onWorker: Bool {
        get { pthread_getspecific(isWorker) != nil }
        set { pthread_setspecific(isWorker, newValue ? UnsafeRawPointer(bitPattern: 1) : nil) }
    }

    /// The thread-specific key set on the threads of ``start(_:_:)``.
    private static let isWorker: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// A thread's work, handed to it through `pthread_create`'s pointer.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}

extension Workers {
    /// Threads started ahead of their work, waiting for it: a caller learns how many it has
    /// before it commits to anything (the GIF encoder, before the file's first byte), and
    /// hands them their work later with ``begin(_:)``, or lets them go with ``release()``.
    /// Dropped without either, it lets them go.
    package final class Reserved: @unchecked Sendable {
        private let gate = Gate()
        private var started = Started(threads: [])

        /// How many threads are waiting.
        package var count: Int { started.count }

        fileprivate init(_ count: Int) {
            let gate = gate
            started = Workers.start(count) { gate.take()?() }
        }

        deinit {
            gate.open(nil)
            started.join()
        }

        /// Hands `body` to every thread; ``join()`` waits for them.
        package func begin(_ body: @escaping @Sendable () -> Void) { gate.open(body) }

        /// Lets the threads go without work.
        package func release() { gate.open(nil) }

        /// Waits for every thread to end: after ``begin(_:)`` or ``release()``.
        package func join() {
            started.join()
            started = Started(threads: [])
        }
    }

    /// Starts up to `count` threads that wait for the work ``Reserved/begin(_:)`` hands them.
    package static func reserve(_ count: Int) -> Reserved { Reserved(count) }

    /// The work the reserved threads wait for: nil until handed, or for none.
    ///
    /// `@unchecked Sendable`: `work` and `isOpen` are read and written only under `lock`.
    private final class Gate: @unchecked Sendable {
        private let lock = Lock()
        private var work: (@Sendable () -> Void)?
        private var isOpen = false

        /// Opens the gate with `work` (nil: none); the first opening counts.
        func open(_ work: (@Sendable () -> Void)?) {
            lock.lock()
            if !isOpen {
                self.work = work
                isOpen = true
                lock.broadcast()
            }
            lock.unlock()
        }

        /// Waits for the gate to open, and gives its work.
        func take() -> (@Sendable () -> Void)? {
            lock.lock()
            defer { lock.unlock() }
            while !isOpen { lock.wait() }
            return work
        }
    }
}
