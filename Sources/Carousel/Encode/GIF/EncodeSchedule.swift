#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SceneEncoder {
    /// Writes every GIF frame through `writer` with the `workers` reserved (one per core);
    /// `progress` gets (timeline frames done, total).
    ///
    /// One worker per core takes the tasks of ``EncodeSchedule`` in order: each palette
    /// group is one task (its palette, its mapping, then its frames composed and
    /// LZW-encoded), and each rest that moves settle into is prepared ahead as two tasks,
    /// its palette and mapping and its settling map (which does not depend on them), placed
    /// a few groups before the first move that needs it. This thread writes the groups'
    /// frames in order as they come. There is no barrier between batches: a core that
    /// finishes a task takes the next, up to ``EncodeSchedule/window`` groups past the last
    /// one written, so memory stays flat in the frame count. Every task's result depends on
    /// its inputs alone, so the output does not depend on scheduling.
    ///
    /// The workers are reserved beforehand (``Workers/reserve(_:)``): ``GIFEncoder`` reserves
    /// them before it writes the GIF's first byte, so that a run the system gives no thread
    /// writes none (`-o -` too).
    func encode(to writer: borrowing GIFWriter, on workers: Workers.Reserved,
                progress: (Int, Int) -> Void) throws(CarouselError) {
        guard workers.count > 0 else { throw .output(writer.name, Self.noThread) }
        let schedule = EncodeSchedule(encoder: self, cores: workers.count)
        workers.begin { schedule.work() }
        for (g, group) in groups.enumerated() {
            let results = schedule.results(of: g)
            do {
                for (k, result) in zip(group.frames, results) {
                    try writer.write(result.get())
                    progress(plan.framesDone(through: k), plan.timelineFrames)
                }
            } catch {
                schedule.cancel()
                workers.join()
                throw error
            }
            schedule.written(g)
        }
        workers.join()
    }

    /// Why a run whose encoder could start no thread beside the writer stopped: the system
    /// gave none (`pthread_create`'s `EAGAIN`), as when the address space is used up or the
    /// user may start no more processes (`ulimit -u`).
    static let noThread = "the system gives this run no thread to encode with (are memory or processes limited, as by ulimit -v or ulimit -u?)"
}

/// The tasks of ``SceneEncoder/encode(to:on:progress:)`` in the order workers take them, and
/// what they hand each other: the rests prepared ahead, and the groups' encoded frames
/// until they are written.
///
/// `@unchecked Sendable` is safe here: every stored property that changes is read and
/// written only while holding `condition`'s lock, and the encoder and the task list are
/// immutable `Sendable` values.
final class EncodeSchedule: @unchecked Sendable {
    /// One task: half of a rest prepared ahead for the moves that settle into it (its
    /// palette and mapping, or its settling map), or a group encoded.
    enum Job: Equatable, Sendable {
        case restPalette(Int)
        case restSettling(Int)
        case group(Int)
    }

    /// How many groups past the last one written a worker may start: the encoded frames
    /// waiting to be written are at most this many groups' (8 per core, at least 4).
    let window: Int
    let tasks: [Job]
    private let encoder: SceneEncoder
    /// For each moving group whose move a rest follows, that rest's group (dithered encodings).
    private let targets: [Int: Int]
    /// For each moving group that starts a move after a hold cleared under it, that hold's
    /// group (``SceneEncoder/carrySources(_:)``).
    private let carries: [Int: Int]
    /// The last group that takes each of those holds' colours.
    private let lastCarry: [Int: Int]
    /// The groups that start from the colours the group before them left: those that may take
    /// that group's palette whole (``SceneEncoder/followers(_:targets:carries:)``), and those
    /// whose still pixels may keep its colours (``SceneEncoder/keepers(_:)``). Each starts when
    /// its turn comes and, once its own palette is designed, waits for what that group left.
    private let waiting: Set<Int>
    private let followers: Set<Int>
    /// What each group before a waiting one left, until that one takes it.
    private var left: [Int: SceneEncoder.Follow] = [:]
    /// The rest groups prepared ahead.
    private let prepared: Set<Int>
    private let condition = Lock()
    private var next = 0
    private var writtenGroups = 0
    private var cancelled = false
    private var rests: [Int: SceneEncoder.PreparedScene] = [:]
    private var settlingFrom: [Int: [Int32]] = [:]
    private var results: [Int: [Result<EncodedFrame, CarouselError>]] = [:]
    /// Each group's last picture, for the group after it.
    private let handoff: PictureHandoff

    init(encoder: SceneEncoder, cores: Int) {
        self.encoder = encoder
        window = max(4, 8 * cores)
        handoff = PictureHandoff(capacity: cores + 1)
        targets = encoder.settlingTargets(encoder.groups)
        carries = encoder.carrySources(encoder.groups)
        prepared = Set(targets.values).union(carries.values)
        var last: [Int: Int] = [:]
        for (g, rest) in carries { last[rest] = max(last[rest] ?? g, g) }
        lastCarry = last
        followers = encoder.followers(encoder.groups, targets: targets, carries: carries)
        waiting = followers.union(encoder.keepers(encoder.groups))
        tasks = EncodeSchedule.order(groups: encoder.groups.count, targets: targets, carries: carries, lead: 2 * cores)
    }

    /// Every group in order, with each prepared rest's two tasks `lead` groups before the
    /// first move that settles into it (or first of all): by the time a worker reaches that
    /// move, the rest is usually ready, and the other workers had groups to take meanwhile.
    static func order(groups: Int, targets: [Int: Int], carries: [Int: Int] = [:], lead: Int) -> [Job] {
        var firstNeed: [Int: Int] = [:]
        for (g, rest) in targets { firstNeed[rest] = min(firstNeed[rest] ?? g, g) }
        for (g, rest) in carries { firstNeed[rest] = min(firstNeed[rest] ?? g, g) }
        let settled = Set(targets.values)
        var restsBefore: [Int: [Int]] = [:]
        for (rest, g) in firstNeed { restsBefore[max(0, g - lead), default: []].append(rest) }
        var tasks: [Job] = []
        for g in 0..<groups {
            for rest in (restsBefore[g] ?? []).sorted() {
                tasks.append(.restPalette(rest))
                if settled.contains(rest) { tasks.append(.restSettling(rest)) }
            }
            tasks.append(.group(g))
        }
        return tasks
    }

    /// A worker: takes the tasks in order until none is left or the run is cancelled.
    func work() {
        while let (task, ready, settling, carry, follow) = claim() {
            switch task {
            case .restPalette(let g):
                let rest = encoder.prepare(encoder.groups[g], previous: nil, settling: nil) {
                    FramePicture(self.encoder.plan, frame: $0)
                }
                finish { rests[g] = rest }
            case .restSettling(let g):
                let from = encoder.settlingFrames(before: encoder.groups[g])
                finish { settlingFrom[g] = from }
            case .group(let g):
                let leaves: ((SceneEncoder.Follow) -> Void)? = waiting.contains(g + 1)
                    ? { follow in self.finish { self.left[g] = follow } } : nil
                let frames = encoder.encodeGroup(g, scene: ready, settling: settling, carry: carry, follow: follow,
                                                 handoff: handoff, leaves: leaves)
                finish { results[g] = frames }
            }
        }
    }

    /// The next task, once it may start, with its group's prepared rest, where its move
    /// settles, the hold whose colours it carries, and a wait for what the group before left
    /// where it starts from that group (``SceneEncoder/FollowWait``, taken once its own palette
    /// is designed); nil when the tasks are done or the run is cancelled. Every task a claimed
    /// task waits for comes before it and is claimed already, so the wait ends.
    private func claim() -> (Job, SceneEncoder.PreparedScene?, SceneEncoder.Settling?, SceneEncoder.Carry?,
                             SceneEncoder.FollowWait?)? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled, next < tasks.count, case .group(let g) = tasks[next], g >= writtenGroups + window {
            condition.wait()
        }
        guard !cancelled, next < tasks.count else { return nil }
        let task = tasks[next]
        next += 1
        guard case .group(let g) = task else { return (task, nil, nil, nil, nil) }
        while !cancelled, !isReady(g) { condition.wait() }
        guard !cancelled else { return nil }
        let settling = targets[g].map { rest in
            SceneEncoder.Settling(rest: rests[rest]!,
                                  restOffset: encoder.plan.frames[encoder.groups[rest].frames.lowerBound].layerX
                                      - rests[rest]!.regionX,
                                  from: settlingFrom[rest]!)
        }
        let carry = carries[g].map { rest in
            SceneEncoder.Carry(rest: rests[rest]!,
                               restOffset: encoder.plan.frames[encoder.groups[rest].frames.lowerBound].layerX - rests[rest]!.regionX,
                               frame: encoder.groups[rest].frames.upperBound - 1)
        }
        let follow = waiting.contains(g) ? SceneEncoder.FollowWait(whole: followers.contains(g)) { self.left(by: g - 1) } : nil
        return (task, rests[g], settling, carry, follow)
    }

    /// Whether what group `g` needs is ready: its own rest when prepared ahead, the rest its
    /// move settles into (palette and settling map), and the hold it carries colours from
    /// (what the group before left is waited for inside the task). Called holding the lock.
    private func isReady(_ g: Int) -> Bool {
        if prepared.contains(g) && rests[g] == nil { return false }
        if let rest = targets[g], rests[rest] == nil || settlingFrom[rest] == nil { return false }
        if let rest = carries[g], rests[rest] == nil { return false }
        return true
    }

    /// What group `g` left for the group after it, once it has (a worker's wait, holding no
    /// task's lock: `g` was claimed before the group that waits, and every task it waits for
    /// was claimed before it, so the wait ends); nil when the run is cancelled first.
    func left(by g: Int) -> SceneEncoder.Follow? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled, left[g] == nil { condition.wait() }
        return left.removeValue(forKey: g)
    }

    private func finish(_ store: () -> Void) {
        condition.lock()
        store()
        condition.broadcast()
        condition.unlock()
    }

    /// Group `g`'s encoded frames, once a worker has made them.
    func results(of g: Int) -> [Result<EncodedFrame, CarouselError>] {
        condition.lock()
        defer { condition.unlock() }
        while results[g] == nil { condition.wait() }
        return results.removeValue(forKey: g) ?? []
    }

    /// Group `g` is written: the groups up to it are done, and a rest serves only the moves
    /// before it and itself.
    func written(_ g: Int) {
        finish {
            writtenGroups = g + 1
            // A hold the move after it takes colours from stays until that move's group is written.
            if lastCarry[g] == nil { rests[g] = nil }
            if let rest = carries[g], lastCarry[rest] == g { rests[rest] = nil }
            settlingFrom[g] = nil
        }
    }

    /// No task is taken from now on (writing failed).
    func cancel() {
        finish { cancelled = true }
    }
}

/// The last picture of each group, made while the group is encoded, kept for the group
/// after it, which compares its first frame with it (``SceneEncoder/encodeGroup(_:scene:settling:carry:follow:handoff:leaves:)``).
/// A picture is taken once; at most `capacity` are kept, the earliest frames' dropped first
/// (those whose next group started before they were made, and made its own), so memory stays
/// flat in the frame count. Whether a picture is found changes the time taken, never a byte:
/// the same frame's picture is the same either way.
///
/// `@unchecked Sendable` is safe here: `kept` is read and written only while holding `lock`.
final class PictureHandoff: @unchecked Sendable {
    private let lock = Lock()
    private var kept: [(index: Int, image: FramePicture)] = []
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Keeps frame `index`'s picture for the group that starts after it.
    func put(_ index: Int, _ image: FramePicture) {
        lock.lock()
        defer { lock.unlock() }
        kept.append((index, image))
        if kept.count > capacity, let earliest = kept.indices.min(by: { kept[$0].index < kept[$1].index }) {
            kept.remove(at: earliest)
        }
    }

    /// Frame `index`'s picture, if a group has made it and it is still kept; it is kept no longer.
    func take(_ index: Int) -> FramePicture? {
        lock.lock()
        defer { lock.unlock() }
        guard let at = kept.firstIndex(where: { $0.index == index }) else { return nil }
        return kept.remove(at: at).image
    }

    /// How many pictures are kept.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return kept.count
    }
}
