#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encodes a plan's GIF scene by scene, using what the plan promises: the top rows of
/// every picture are a crop of one layer, so rests repeat one picture and moves slide
/// a window across it.
///
/// 1. **Plan.** Consecutive identical frames are already merged into one GIF frame
///    with the summed delay (``FramePlan``).
/// 2. **Palette groups.** A rest is one group. When dithering, a move is cut into
///    groups of two consecutive frames, or three where a full palette is dithered in
///    order, their views lie close and their smooth colours are not many
///    (``movingFramesPerPalette``, ``movingGroupColorCells``), so every palette serves
///    what a few frames show rather than both pictures a move passes between.
///    Without dithering (the compact encoding) a move is one group with half the colours.
///    Where frames are cleared (a transparent background whose gaps move), slow frames
///    share a group (``clearedGroupSpread``). A group's region is the part of the layer
///    its frames show.
/// 3. **Palette and mapping, once per group.** A palette is designed
///    for the region (exact when it has few colours; a rest's from its exact colours
///    where most of its pixels lie in as many as the palette designs), with the overlay
///    colours, the background below the layer and a transparent entry reserved; then the
///    whole region is mapped to indices once, with the dither pattern fixed to the layer, so it
///    travels with the content. A frame is a crop of those indices. A dithered moving
///    frame's palette is designed for the pixels it draws, and the pixels it leaves
///    for the next rest take that rest's indices where the rest's colours they show are
///    worth entries (``prepare(_:previous:settling:carry:follow:picture:)``);
///    a rest's pixels count more the longer they stay after it (``restCounts(_:)``).
///    With ordered dithering, pixels at edges and in texture take their nearest entry
///    (``DitherMask``, made once for the layer, so it travels with the content too).
///    Groups are prepared in parallel, a task each (``EncodeSchedule``), with deterministic
///    output.
/// 4. **Frames.** Each GIF frame covers only the rectangle that changed since the
///    previous frame, and inside it every pixel whose exact colour did not change is
///    transparent: unchanged pixels keep exactly what the viewer already shows (no
///    shimmer), and LZW sees long transparent runs. Overlay pixels are mapped after:
///    from their exact colours, with the overlay colours reserved.
struct SceneEncoder: Sendable {
    let plan: FramePlan
    let colors: Int
    let dither: Dither
    /// The layer's ``DitherMask`` (ordered dithering only).
    let mask: DitherMask?
    /// The layer's ``OklabPlane`` (ordered dithering only, which compares colours in Oklab).
    let plane: OklabPlane?
    /// The plan's palette groups, in frame order.
    ///
    /// When dithering, a move's frames are groups of two, or, with ordered dithering and 256
    /// colours, of three whose views lie close together and whose smooth colours are not many
    /// (``movingFramesPerPalette``, ``movingGroupColorCells``); where frames are cleared (``redraws``), a move's
    /// first frame is a group of one, and so is its last where a rest follows, and the frames
    /// between are groups of two or more whose views lie close together
    /// (``clearedGroupSpread``).
    let groups: [PaletteGroup]
    /// Whether the background is transparent: the plan's pixels are then transparent or
    /// opaque (``FramePlan/binaryAlpha()``), and a transparent pixel takes the transparent
    /// index, which leaves the canvas as it is: transparent, since where a pixel turns
    /// transparent the frame before is cleared under it (``canvas``).
    let keyed: Bool
    /// On a transparent background, each frame's rectangle and whether it is cleared once
    /// shown (``FrameCanvas``); a frame is compared with the canvas the frame before leaves.
    let canvas: FrameCanvas?
    /// Whether frames are cleared once shown (``canvas``), so frames after them draw again
    /// pixels that stood still: then every move, the compact encoding's too, is prepared as
    /// the dithered moves are, its frames taking a hold's colours for those pixels.
    let redraws: Bool

    /// An encoder for `plan`; on a transparent background, `canvas` is the plan's
    /// ``FrameCanvas`` where the caller has it already.
    init(plan: FramePlan, colors: Int, dither: Dither, canvas given: FrameCanvas? = nil) {
        self.plan = plan
        keyed = plan.background.a < 128
        canvas = keyed ? given ?? FrameCanvas(plan) : nil
        self.colors = colors
        self.dither = dither
        let mask = dither == .ordered ? DitherMask(plan.layer, colors: colors) : nil
        let plane = dither.space == .oklab ? OklabPlane(plan.layer) : nil
        self.mask = mask
        self.plane = plane
        redraws = canvas?.clears.contains(true) == true
        groups = SceneEncoder.groups(plan, colors: colors, dither: dither, alone: redraws) { columns in
            guard let mask, let plane else { return false }
            return mask.fillsColorCells(plane, columns: columns, moreThan: SceneEncoder.movingGroupColorCells)
        }
    }

    /// The dither mask of the layer columns `x..<x + width`, or nil without one.
    func undithered(x: Int, width: Int) -> [Bool]? {
        mask?.cut(x: x, width: width, height: plan.layer.height)
    }

    /// Frames that share a palette: a rest, or a few frames of a move.
    struct PaletteGroup: Sendable {
        let frames: Range<Int>
        let isMoving: Bool
    }

    /// The palette groups of `plan` (see ``groups``). With `alone` (a transparent background
    /// where frames are cleared), a move's first frame has a palette of its own, and so has
    /// its last where a rest follows: drawn again after a hold cleared under them, or before
    /// the rest, they take that hold's colours (``Carry``, ``Settling``). The frames between
    /// share palettes while their views lie close (``clearedGroupSpread``).
    /// `crowded` says whether the smooth colours of some layer columns are too many for three
    /// frames showing them to share a palette (``movingGroupColorCells``; asked with ordered
    /// dithering and a full palette only).
    private static func groups(_ plan: FramePlan, colors: Int, dither: Dither, alone: Bool,
                               crowded: (Range<Int>) -> Bool) -> [PaletteGroup] {
        plan.scenes.indices.flatMap { s -> [PaletteGroup] in
            let scene = plan.scenes[s]
            guard scene.isMoving, dither != .none || alone else {
                return [PaletteGroup(frames: scene.frames, isMoving: scene.isMoving)]
            }
            var frames = scene.frames
            var ends: [PaletteGroup] = []
            if alone, restFollows(plan, scene: s), frames.count > 2 {
                ends = [PaletteGroup(frames: frames.upperBound - 1..<frames.upperBound, isMoving: true)]
                frames = frames.lowerBound..<frames.upperBound - 1
            }
            var middle = frames
            var first: [PaletteGroup] = []
            if alone, middle.count > 1 {
                first = [PaletteGroup(frames: middle.lowerBound..<middle.lowerBound + 1, isMoving: true)]
                middle = middle.lowerBound + 1..<middle.upperBound
            }
            // Three frames a palette where a full palette is dithered in order; where frames are
            // cleared, slow frames share one up to ``clearedGroupFrames``.
            let full = !alone && dither == .ordered && colors >= 256
            let most = alone ? clearedGroupFrames : full ? movingFramesPerPalette : movingGroupLeast
            return first + movingGroups(plan, middle, most: most, closeAlike: alone,
                                        joinsLast: alone && !restAfter(plan, scene: s), crowded: { full && crowded($0) }) + ends
        }
    }

    /// Whether a rest (a scene that stands still) follows scene `s` of `plan`.
    static func restFollows(_ plan: FramePlan, scene s: Int) -> Bool {
        s + 1 < plan.scenes.count && !plan.scenes[s + 1].isMoving
    }

    /// Whether a move's last frame (scene `s` of `plan`) gives way to a rest: one follows
    /// (``restFollows(_:scene:)``), or the scene is the last and the GIF loops to a first
    /// scene that is one, from a last frame shown once (autoplay's last move; a settle whose
    /// last frame stands for a rest of its own, shown longer, does not).
    static func restAfter(_ plan: FramePlan, scene s: Int) -> Bool {
        restFollows(plan, scene: s) || s == plan.scenes.count - 1 && !plan.scenes[0].isMoving
            && plan.frames[plan.scenes[s].frames.upperBound - 1].span == 1
    }

    /// Moving frames `frames` of `plan` in groups of two (``movingGroupLeast``; one left over),
    /// and up to `most` while the views stay within ``movingGroupSpread``, but for the last
    /// ``movingGroupTail`` frames or where the three views' layer columns are `crowded`;
    /// or with `closeAlike` two at least and up to `most`
    /// (``clearedGroupFrames``) while the views stay within ``clearedGroupSpread``; with `joinsLast`
    /// (`frames` end with a move's last frame, and no rest comes after it), that frame joins a
    /// group that it would otherwise follow alone.
    private static func movingGroups(_ plan: FramePlan, _ frames: Range<Int>, most: Int, closeAlike: Bool,
                                     joinsLast: Bool, crowded: (Range<Int>) -> Bool) -> [PaletteGroup] {
        let spread = plan.width / (closeAlike ? clearedGroupSpread : movingGroupSpread)
        var groups: [PaletteGroup] = []
        var start = frames.lowerBound
        while start < frames.upperBound {
            // No group of more than two takes one of a move's last frames (``movingGroupTail``),
            // except where frames are cleared.
            let cap = closeAlike || start + most <= frames.upperBound - movingGroupTail ? most : movingGroupLeast
            var end = start + 1
            var low = plan.frames[start].layerX, high = low
            while end < frames.upperBound && (end - start < cap || closeAlike && joinsLast && end == frames.upperBound - 1) {
                let x = plan.frames[end].layerX
                // Past two frames, none joins whose view lies too far, or where the views' smooth
                // colours are many.
                let left = min(low, x), right = max(high, x)
                if end - start >= movingGroupLeast && (right - left > spread || crowded(left..<right + plan.width)) { break }
                low = left
                high = right
                end += 1
            }
            groups.append(PaletteGroup(frames: start..<end, isMoving: true))
            start = end
        }
        return groups
    }

    /// Where frames are cleared (a transparent background whose gaps move over the items),
    /// a move's frames share a palette while their views lie within this fraction of the width
    /// of each other (1/8), two frames a group at least. Each frame after a cleared one draws
    /// again the pixels that stood still, and a pixel drawn with another palette's entries
    /// changes on screen; in a group, one the views share takes the same entry. A finger's
    /// settle ends in frames a pixel or two apart whose pixels mostly stand still, and where
    /// no rest follows (the settle's last step rounds to the rest's picture, so the frame
    /// that stands for it belongs to the move), its last frame, which shows the rest, joins
    /// them, past ``clearedGroupFrames`` if need be. Measured with `python3
    /// bench/transparent-check.py BIN --every 1 -- --spacing 16 --item-width 560 --script S`
    /// (bytes; pixels that change where the exact frames do not; SSIMULACRA2 on white over
    /// every frame, mean and worst): S = `hold 0.3; drag -200 0.3; release; hold 0.5`, two
    /// frames a group and the last alone 903,048; 243,925; 86.30 (83.62), an eighth 907,472;
    /// 27,123; 86.02 (83.37); docs/behaviour.md has the others.
    static let clearedGroupSpread = 8

    /// The most frames such a group holds: a group's palette samples all its frames, and
    /// its encoded frames wait to be written together, so a slow drag's hundreds of frames
    /// within the spread would hold memory in proportion to their number. A swipe's settle,
    /// the longest measured, makes a group of 8, or 9 with its last frame: the move's last,
    /// where no rest comes after it (``restAfter(_:scene:)``), joins the group it would
    /// follow alone, past this, for it stands for the rest (a frame of its own, with a
    /// palette of its own, changed the pixels that stand still as the settle ended: 96,248 of
    /// them at the end of `swipe next` in `python3 bench/transparent-check.py BIN --
    /// --spacing 16 --item-width 560 --script 'swipe next; hold 1; swipe prev 0.5'`).
    static let clearedGroupFrames = 8

    /// A group made ready: its palette, the region's indices, and an exact search for overlay pixels.
    struct PreparedScene: Sendable {
        let regionX: Int
        let regionWidth: Int
        let indices: [UInt8]
        let palette: [RGBA]
        let search: PaletteSearch
        let transparentIndex: Int
        let backgroundIndex: UInt8
    }

    /// Where a move's pixels come to rest: the prepared rest that follows the move, and for
    /// every pixel of the layer rows the first frame of the move from which it shows the
    /// same colour through that rest (`Int32.max` where an overlay may draw).
    struct Settling: Sendable {
        let rest: PreparedScene
        /// The rest's column in its region's indices.
        let restOffset: Int
        let from: [Int32]
    }

    /// On a transparent background, the hold before a move, for the move's groups:
    /// its prepared scene, its column in the scene's region, and its planned frame.
    struct Carry: Sendable {
        let rest: PreparedScene
        let restOffset: Int
        let frame: Int
    }

    /// Where frames are cleared, what a group of slow frames takes from the moving group before
    /// it (``followers(_:targets:carries:)``): that group's palette, and the index its frames
    /// left at each pixel (``ShownIndices/indices``), which stand for the same colours where the
    /// follower takes the palette.
    struct Follow: Sendable {
        let palette: [RGBA]
        let shown: [Int16]
    }

    /// What a group that starts from the group before it (a follower or a keeper) is handed
    /// when it starts: which of the two it is, and a wait for what that group left
    /// (``Follow``). The group designs its own palette before it waits, so the design runs
    /// beside the group before's work instead of after it; what it takes is the same either
    /// way. Used by one worker, for one group.
    final class FollowWait {
        /// Whether the group may take the palette whole (a follower, ``followers(_:targets:carries:)``);
        /// otherwise its pixels that stand still may keep the colours left (``keepers(_:)``).
        let whole: Bool
        private let wait: () -> Follow?
        private var taken: Follow??

        init(whole: Bool, wait: @escaping () -> Follow?) {
            self.whole = whole
            self.wait = wait
        }

        /// What the group before left, once it has; nil when the run is cancelled first.
        var left: Follow? {
            if let taken { return taken }
            let follow = wait()
            taken = .some(follow)
            return follow
        }
    }

    /// Where frames are cleared (and still pixels keep their entry, ``ShownIndices``), the moving
    /// groups whose every view lies within ``holdPaletteSpread`` of the last view of the moving
    /// group before them: a slow drag's frames, a pixel or two apart, which draw again after a
    /// clear the pixels the group before drew. Such a group waits for that group (once its own
    /// palette is designed, ``FollowWait``), starts from the colours it left on screen
    /// (``Follow``), and takes its palette whole where it serves the group's sampled pixels
    /// about as well as a palette of its own (``followErrorPercent``); where it does not and
    /// its group starts or ends its move, it keeps the colours that group left where its own
    /// palette lacks them, as a keeper does (``keepsLeftColors(_:follow:)``). Left out: a
    /// group whose move a rest follows, or that takes a hold's colours (`targets`,
    /// ``carrySources(_:)``), the group that ends a move a rest follows, a group after the
    /// first (which draws the whole frame, with a palette for all of it), and a group that
    /// another follows (one generation).
    func followers(_ groups: [PaletteGroup], targets: [Int: Int], carries: [Int: Int]) -> Set<Int> {
        guard redraws, dither != .diffusion else { return [] }
        var followers = Set<Int>()
        for g in groups.indices.dropFirst() where startsFromGroupBefore(groups, g) {
            guard targets[g] == nil, carries[g] == nil else { continue }
            // One generation: a follower's palette was designed for the group before it, and
            // taken again and again it drifts from what the frames show (a slow drag's frames
            // fell by up to 1.55).
            if !followers.contains(g - 1), isSlow(groups, g) { followers.insert(g) }
        }
        return followers
    }

    /// Whether moving group `g` may start from what the moving group before it left
    /// (``followers(_:targets:carries:)``, ``keepers(_:)``): not the group after the first of
    /// all (which draws the whole frame, with a palette for all of it), and not the group that
    /// ends a move a rest follows, which shows that rest and designs its own palette. The
    /// group that ends a move no rest follows (a drag before its settle, a settle whose last
    /// frame stands for the rest; the last move counts as followed by a rest where the GIF
    /// loops to one and its last frame is shown once, ``restAfter(_:scene:)``) starts from
    /// the group before as the others do: designing its own palette, it changed the pixels
    /// that stand still (`python3 bench/transparent-check.py BIN -- --spacing 16 --item-width
    /// 560 --script 'hold 0.3; drag -200 0.3; release; hold 0.5'`: 10,486 still pixels changed
    /// on screen, 863 where it starts from the drag's last group; docs/behaviour.md, *Where no
    /// rest follows a move*).
    private func startsFromGroupBefore(_ groups: [PaletteGroup], _ g: Int) -> Bool {
        guard groups[g].isMoving && groups[g - 1].isMoving && groups[g - 1].frames.lowerBound > 0 else { return false }
        let scene = plan.frames[groups[g].frames.lowerBound].scene
        let lastOfMove = plan.scenes[scene].frames.upperBound - 1
        return !(SceneEncoder.restAfter(plan, scene: scene) && groups[g].frames.contains(lastOfMove))
    }

    /// Whether a group handed `follow` keeps the colours the group before left where its own
    /// palette lacks ones that pixels standing still show, and starts its entries from those
    /// left (``keepHoldColors``, ``ShownIndices``): a keeper always; a follower, which takes
    /// that group's palette whole where it serves, only where it does not and its group starts
    /// or ends its move (a follower that kept none changed the pixels standing still there;
    /// inside a slow drag, keeping them cost as much memory again and a third more time, for
    /// little: docs/behaviour.md, *Where no rest follows a move*).
    func keepsLeftColors(_ group: Range<Int>, follow: FollowWait) -> Bool {
        guard follow.whole else { return true }
        let move = sceneFrames(of: group.lowerBound)
        return group.lowerBound == move.lowerBound || group.contains(move.upperBound - 1)
    }

    /// The planned frames of the scene (a move or a rest) that planned frame `k` belongs to.
    func sceneFrames(of k: Int) -> Range<Int> {
        plan.scenes[plan.frames[k].scene].frames
    }

    /// Whether every view of group `g` lies within 1/``holdPaletteSpread`` of the width of the
    /// last view of the group before it.
    private func isSlow(_ groups: [PaletteGroup], _ g: Int) -> Bool {
        let x = plan.frames[groups[g - 1].frames.upperBound - 1].layerX
        return groups[g].frames.allSatisfy { abs(plan.frames[$0].layerX - x) <= plan.width / SceneEncoder.holdPaletteSpread }
    }

    /// Where frames are cleared (and still pixels keep their entry, ``ShownIndices``), the moving
    /// groups after a moving group that are not slow enough to follow it
    /// (``followers(_:targets:carries:)``): a view lies more than 1/``holdPaletteSpread`` of the
    /// width from the group before's last. Each waits for that group (once its own palette is
    /// designed, ``FollowWait``) and, where its own palette lacks a colour that a pixel
    /// standing still since shows, keeps the colours that group left (``Follow``) for those
    /// pixels, up to ``leftColors(_:)`` entries (``keepHoldColors``): drawn again after a
    /// clear with its own palette's entries, they changed on screen where the exact frames do
    /// not. Those colours stand in for the hold's before the move (``Carry``), which the group
    /// before kept where its pixels stood still since that hold. Left out: the group that ends
    /// a move a rest follows, which shows the rest with a palette of its own (its still pixels
    /// change there, once; the group that ends a move no rest follows is a keeper or a
    /// follower as the others are, ``startsFromGroupBefore(_:_:)``); slow groups, whose
    /// palettes kept again and again leave their moving pixels ever fewer entries (measured at
    /// ``leftColors(_:)``); and the group after the first of all (which draws the whole frame,
    /// with a palette for all of it).
    func keepers(_ groups: [PaletteGroup]) -> Set<Int> {
        guard redraws, dither != .diffusion else { return [] }
        return Set(groups.indices.dropFirst().filter { startsFromGroupBefore(groups, $0) && !isSlow(groups, $0) })
    }

    /// The moving groups of a move after a hold that is cleared under the move's
    /// first frame (a transparent background), each with that hold's group: the pixels
    /// still since the hold, drawn again there, take the hold's colours (``Carry``).
    func carrySources(_ groups: [PaletteGroup]) -> [Int: Int] {
        guard let canvas else { return [:] }
        var sources: [Int: Int] = [:]
        var hold: Int?
        for g in groups.indices {
            guard groups[g].isMoving else {
                hold = g
                continue
            }
            if let h = hold, canvas.clears[groups[h].frames.upperBound - 1] { sources[g] = h }
        }
        return sources
    }

    /// The pixels of a dithered moving group that show a colour shown before or after it: those
    /// that settle into the rest after the move (``Settling``), and, on a transparent
    /// background, those still since the frame before the group (`carry`: the hold before the
    /// move, ``Carry``, or the moving group before, ``Follow``), which a cleared rectangle makes
    /// the group draw again. Their colours are reserved, the ones most of these pixels show
    /// first, up to `limit` entries (the overlays' colours, reserved anyway, among them); the
    /// pixels of the others are left to the group's own palette. With `allOrNone`, where those
    /// colours and the overlays' pass `limit`, none but the overlays' is reserved (settling into
    /// a rest that is not drawn again, which gives way to what moves: ``settlingColors(_:)``).
    /// A colour other than an overlay's is reserved only where at least `least` of these pixels
    /// show it (where only the rest's colours are kept: ``settlingWorth`` where the rest is
    /// drawn again, ``settlingEntryWorth`` within a share of the palette where it is not). With
    /// both, a pixel drawn again shows the colour before in the move's frames while its picture
    /// equals the frame before's, else the rest's from the frame where it starts to stay
    /// through the rest, and the rest's in the move's last frame wherever it stays (a group of
    /// its own, like the first: see ``groups(_:dither:alone:)``), so its colour changes once,
    /// inside the move.
    /// Returns the pixels kept (by region pixel) with their entries in the two palettes,
    /// the settling map with the kept pixels marked at the frame that draws them and the others
    /// unmarked, and the reserved colours.
    ///
    /// The pixels, hundreds of thousands a group, are counted by entry (``HeldColors``), and
    /// only the few hundred entries are looked up by colour (docs/behaviour.md, *Held colours
    /// counted by entry*).
    private func keepHoldColors(_ group: Range<Int>, xs: [Int], regionX: Int, regionWidth: Int, settling: Settling?,
                                carry: ShownBefore?, picture: (Int) -> FramePicture,
                                limit: Int, least: Int = 0,
                                allOrNone: Bool = false) -> (kept: HeldColors, from: [Int32], reserved: [RGBA]) {
        let w = plan.width, layerHeight = plan.layer.height
        let settles = settling?.from ?? []
        var from = settling?.from ?? [Int32](repeating: .max, count: w * layerHeight)
        // Entries are the palette shown before (0..<256) and the rest's after (256..<512).
        // Each candidate is a region pixel and its entry, packed (``HeldColors/Pixel``); the
        // frame it belongs to, whose offset gives back its screen pixel, is kept by runs
        // (`runs`, where each frame's candidates start), not by candidate.
        var candidates: [HeldColors.Pixel] = []
        var runs: [(start: Int, offset: Int)] = []
        // With a hold before, at most every layer pixel of every frame; reserved once, since a
        // slow group's frames keep most of their pixels and the array would be copied as it
        // grew. Settling pixels alone are mostly a few of the group's (the last frames'), and
        // room for all would stay resident: 3 to 5 MiB more at the peak of the `others`
        // workload's render.
        if carry != nil { candidates.reserveCapacity(group.count * w * layerHeight) }
        let entryColors = HeldColors.entryColors(before: carry?.palette ?? [], after: settling?.rest.palette ?? [])
        // With a hold before the move too, a pixel drawn again in a moving frame shows the hold
        // before's colour, and in the move's last frame the rest's, where it stays through it:
        // the colour changes once, in the move.
        let lastOfMove = sceneFrames(of: group.lowerBound).upperBound - 1
        // For each screen pixel, the last of the group's frames (by position) that shows it with
        // the hold before's colour, or -1: a pixel still since the hold in a frame is still in
        // the frames before it, so those that show it are the group's first frames.
        var carriedThrough = [Int32](repeating: -1, count: carry == nil ? 0 : w * layerHeight)
        if let carry {
            let hold = carry.picture
            // Overlays draw over the layer: their pixels are left to each frame.
            var still = [Bool](repeating: true, count: w * layerHeight)
            forEachOverlayPixel(of: [carry.frame] + Array(group)) { still[$0] = false }
            for (n, k) in group.enumerated() where settling == nil || k != lastOfMove {
                let offset = xs[n] - regionX
                runs.append((candidates.count, offset))
                picture(k).withRows { current in
                    hold.withRows { before in
                        for y in 0..<layerHeight {
                            let now = current(y), then = before(y)
                            for x in 0..<w where still[y * w + x] {
                                let p = y * w + x
                                // Still since the hold, and opaque.
                                guard now[x] == then[x], now[x] >> 31 != 0 else {
                                    still[p] = false
                                    continue
                                }
                                let index = Int(carry.entries[y * carry.row + carry.offset + x])
                                guard index < carry.palette.count else { continue }
                                candidates.append(HeldColors.Pixel(region: y * regionWidth + offset + x, entry: index))
                                carriedThrough[p] = Int32(n)
                                if n == 0 { from[p] = Int32(k) }
                            }
                        }
                    }
                }
            }
        }
        if let settling {
            let rest = settling.rest, paletteCount = rest.palette.count
            settles.withUnsafeBufferPointer { settles in
                rest.indices.withUnsafeBufferPointer { restIndices in
                    for (n, k) in group.enumerated() {
                        let target = Int32(k), offset = xs[n] - regionX
                        // Where frames before the rest draw pixels again, the move's last frame shows the
                        // rest's colour for every pixel that stays through it, the others those that
                        // start to stay there and do not keep the hold before's.
                        let through = carry != nil && k == lastOfMove
                        runs.append((candidates.count, offset))
                        for y in 0..<layerHeight {
                            // Through pointers: the scan, over every layer pixel of every frame, reads
                            // without bounds checks.
                            let row = settles.baseAddress! + y * w
                            let shown = restIndices.baseAddress! + (y * rest.regionWidth + settling.restOffset)
                            for x in 0..<w where through ? row[x] <= target : row[x] == target {
                                let p = y * w + x
                                if !carriedThrough.isEmpty && carriedThrough[p] >= n { continue }
                                let index = Int(shown[x])
                                // The rest's transparent pixels stay as they are.
                                guard index < paletteCount else { continue }
                                candidates.append(HeldColors.Pixel(region: y * regionWidth + offset + x,
                                                                   entry: HeldColors.after + index))
                                // Without a hold before, the settling map already starts the pixel here.
                                if carry != nil { from[p] = target }
                            }
                        }
                    }
                }
            }
        }
        var perEntry = [Int](repeating: 0, count: entryColors.count)
        for c in candidates { perEntry[c.entry] &+= 1 }
        var counts: [RGBA: Int] = [:]
        for (e, n) in perEntry.enumerated() where n > 0 { counts[entryColors[e], default: 0] += n }
        var reserved = overlayReservations
        var kept = Set<RGBA>()
        // All or none: where the colours these pixels show and the overlays' pass the limit, none
        // but the overlays' is reserved.
        let none = allOrNone && Set(reserved).union(counts.keys).count > limit
        for (c, n) in none ? [] : counts.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key.word < $1.key.word }) {
            if reserved.contains(c) {
                kept.insert(c)
            } else if reserved.count < limit && n >= least {
                reserved.append(c)
                kept.insert(c)
            }
        }
        let keptEntry = entryColors.indices.map { perEntry[$0] > 0 && kept.contains(entryColors[$0]) }
        // Where every candidate is kept, the candidates and the map stay as they are.
        guard entryColors.indices.contains(where: { perEntry[$0] > 0 && !keptEntry[$0] }) else {
            return (HeldColors(pixels: candidates, entryColors: entryColors), from, reserved)
        }
        // The kept candidates are the pixels, moved down in place; a pixel not kept is unmarked
        // at its screen pixel, worked out from its frame's offset.
        var count = 0, run = 0
        for i in candidates.indices {
            let c = candidates[i]
            if keptEntry[c.entry] {
                candidates[count] = c
                count += 1
                continue
            }
            while run + 1 < runs.count && runs[run + 1].start <= i { run += 1 }
            let y = c.region / regionWidth
            from[y * w + c.region - y * regionWidth - runs[run].offset] = .max
        }
        candidates.removeSubrange(count...)
        return (HeldColors(pixels: candidates, entryColors: entryColors), from, reserved)
    }

    /// Whether a pixel that stands still from the frame before (`before`) to planned frame
    /// `first`, opaque and outside the overlays, shows a colour of `before` that `palette`
    /// lacks: drawn again after a clear, it would change on screen. One whose colour
    /// `palette` holds takes that entry again (``ShownIndices``, seeded with the entries left).
    private func lacksStillColors(_ first: Int, before: ShownBefore, palette: [RGBA],
                                  picture: (Int) -> FramePicture) -> Bool {
        let w = plan.width, layerHeight = plan.layer.height
        let have = Set(palette)
        let lacking = before.palette.map { !have.contains($0) }
        guard lacking.contains(true) else { return false }
        var overlay = [Bool](repeating: false, count: w * layerHeight)
        forEachOverlayPixel(of: [before.frame, first]) { overlay[$0] = true }
        return picture(first).withRows { current in
            before.picture.withRows { previous in
                for y in 0..<layerHeight {
                    let now = current(y), then = previous(y), row = y * before.row + before.offset
                    for x in 0..<w where now[x] == then[x] && now[x] >> 31 != 0 && !overlay[y * w + x] {
                        let entry = Int(before.entries[row + x])
                        if entry < lacking.count && lacking[entry] { return true }
                    }
                }
                return false
            }
        }
    }

    /// What a moving group's still pixels showed in the frame before the group, for
    /// ``keepHoldColors``: a hold's colours (``Carry``) or the moving group's before it
    /// (``Follow``).
    struct ShownBefore {
        /// The planned frame before the group.
        let frame: Int
        /// Its picture, made once for the group's checks (``lacksStillColors``, ``keepHoldColors``).
        let picture: FramePicture
        let palette: [RGBA]
        /// Each layer-row screen pixel's entry, at `y * row + offset + x`; past the palette's
        /// end where the pixel keeps no colour.
        let entries: [UInt8]
        let row: Int
        let offset: Int

        /// A hold's colours, drawn from its prepared region.
        init(_ carry: Carry, plan: FramePlan) {
            frame = carry.frame
            picture = FramePicture(plan, frame: carry.frame)
            palette = carry.rest.palette
            entries = carry.rest.indices
            row = carry.rest.regionWidth
            offset = carry.restOffset
        }

        /// The colours the moving group before left (on a canvas `picture` wide), shown at
        /// planned `frame`, whose picture is `picture`; nil for a palette of 256 entries, which
        /// leaves no index past its end (a transparent background's palettes have at most 255).
        init?(_ follow: Follow, frame: Int, picture: FramePicture) {
            guard follow.palette.count < 256, !follow.shown.isEmpty else { return nil }
            self.frame = frame
            self.picture = picture
            palette = follow.palette
            let none = UInt8(follow.palette.count)
            entries = follow.shown.map { $0 < 0 ? none : UInt8(truncatingIfNeeded: $0) }
            row = picture.width
            offset = 0
        }
    }

    /// The pixels of a moving group that keep a hold's colour (``keepHoldColors``): each
    /// region pixel with its entry in the palette before or the rest's after.
    struct HeldColors {
        /// Where the rest's entries start.
        static let after = 256
        /// A region pixel and its entry (0..<512), in one word: 8 bytes a pixel where a tuple of
        /// two `Int`s took 16, and the candidates, with their screen pixel too, 24. A slow
        /// group keeps most of the pixels of up to nine frames.
        struct Pixel {
            private let word: UInt64
            init(region: Int, entry: Int) {
                assert(region >= 0 && region < 1 << 55 && (0..<512).contains(entry), "HeldColors.Pixel: out of range")
                word = UInt64(region) << 9 | UInt64(entry)
            }
            var region: Int { Int(word >> 9) }
            var entry: Int { Int(word & 511) }
        }
        var pixels: [Pixel] = []
        /// Each entry's colour (`.clear` past a palette's end).
        var entryColors: [RGBA] = []

        /// The colours of the hold before's palette, then the rest's, each padded to 256.
        static func entryColors(before: [RGBA], after: [RGBA]) -> [RGBA] {
            precondition(before.count <= HeldColors.after && after.count <= HeldColors.after,
                         "HeldColors: a GIF palette has at most 256 entries")
            let pad = { (palette: [RGBA]) in palette + [RGBA](repeating: .clear, count: HeldColors.after - palette.count) }
            return pad(before) + pad(after)
        }
    }

    /// The hold whose palette a moving group may take whole on a transparent background where
    /// frames are cleared: for a move's last frame before a rest it redraws (`restRedraws`), the
    /// rest (`settling`); for its first after a hold it redraws, that hold (`carry`); each only
    /// when the frame is a group of its own and its view lies within ``holdPaletteSpread`` of
    /// the hold's. Such a frame shows nearly the hold's picture (the easing starts and ends
    /// slowly), and every pixel of it that stands still is drawn again.
    /// `move` is the planned frames of the group's move; `restRedraws` says the rest after it
    /// (at `move.upperBound`, a planned frame) is drawn again.
    func holdBeside(_ group: Range<Int>, move: Range<Int>, restRedraws: Bool, settling: Settling?,
                    carry: Carry?) -> PreparedScene? {
        guard group.count == 1 else { return nil }
        let k = group.lowerBound
        let near = { (hold: Int) in abs(self.plan.frames[k].layerX - self.plan.frames[hold].layerX) <= self.plan.width / SceneEncoder.holdPaletteSpread }
        if k == move.upperBound - 1 && restRedraws { return near(move.upperBound) ? settling?.rest : nil }
        if k == move.lowerBound, let carry { return near(carry.frame) ? carry.rest : nil }
        return nil
    }

    /// A move's end frame takes a hold's palette whole only while its view lies within
    /// 1/`holdPaletteSpread` of the width from the hold's (``holdBeside(_:move:restRedraws:settling:carry:)``).
    static let holdPaletteSpread = 32

    /// Whether `palette` covers the sampled pixels (`sample`, bytes r, g, b, a): all but one in
    /// ``coverageSlack`` of them lie within ``coveredDistance`` (squared, in Oklab, whatever the
    /// dither) of an entry.
    static func covers(_ palette: [RGBA], sample: [UInt8]) -> Bool {
        var far = 0
        forEachNearestDistance(palette, samplePoints(sample)) { if $0 > coveredDistance { far += 1 } }
        return far * coverageSlack <= sample.count / 4
    }

    /// The Oklab points of the sampled pixels (`sample`, bytes r, g, b, a).
    static func samplePoints(_ sample: [UInt8]) -> [(Int32, Int32, Int32)] {
        (0..<(sample.count / 4)).map { (i: Int) -> (Int32, Int32, Int32) in
            let r = Int32(sample[4 * i]), g = Int32(sample[4 * i + 1]), b = Int32(sample[4 * i + 2])
            return Oklab.point(r, g, b)
        }
    }

    /// `body` with the squared distance (in Oklab, ``ChannelWeights/rgb``, whatever the dither)
    /// from each of `points` (``samplePoints(_:)``) to its nearest entry of `palette`.
    static func forEachNearestDistance(_ palette: [RGBA], _ points: [(Int32, Int32, Int32)], _ body: (Int32) -> Void) {
        let mapper = ColorMapper(palette: palette, space: .oklab)
        let entries = mapper.points
        for p in points { body(ChannelWeights.rgb.distance(entries[Int(mapper.nearest(inRange: p))], p)) }
    }

    /// The summed squared distance (in Oklab, ``ChannelWeights/rgb``) from each of `points`
    /// (``samplePoints(_:)``) to its nearest entry of `palette`.
    static func sampleError(_ palette: [RGBA], _ points: [(Int32, Int32, Int32)]) -> Int {
        var total = 0
        forEachNearestDistance(palette, points) { total += Int($0) }
        return total
    }

    /// A group that follows another (``followers(_:targets:carries:)``) takes its palette where
    /// the sampled pixels' error with it is at most this percentage of their error with the
    /// palette the group designs itself. Measured with `python3 bench/transparent-check.py BIN
    /// --every 1 --against OLD_BIN -- --spacing 16 --item-width 560 --script S`: without the
    /// comparison, a group after a quick swipe (`hold 0.2; swipe next 0.1; hold 0.4; swipe
    /// next 0.3; hold 0.6`) took a palette that passed ``covers(_:sample:)`` and fell from 86.34
    /// to 81.76; at 110, a slow drag that starts the script (`drag -10 2; release; hold 0.4`)
    /// had 35 frames lower, by up to 1.03; at 105, no frame of the scripts in docs/behaviour.md
    /// fell by more than 0.17; at 100, few groups took the palette.
    static let followErrorPercent = 105

    /// One sampled pixel in this many may lie far from every entry of a palette that
    /// ``covers(_:sample:)``.
    static let coverageSlack = 256

    /// How near an entry a sampled pixel of a palette that ``covers(_:sample:)`` lies: a quarter
    /// of ``PaletteDesigner/uncoveredDistance`` (24 units of Oklab where that is 48). With the
    /// designer's distance itself, photographs under a band of rows of one colour each
    /// (`bench/band-items.py`) took the hold's palette in a move's first frame and scored 3.5
    /// lower there (`bench/transparent-check.py --against`); with a quarter, no frame lower.
    static let coveredDistance = PaletteDesigner.uncoveredDistance / 4

    /// The moving groups whose scene a rest follows, each with the index of that rest's
    /// group (dithered encodings, or any where frames are cleared: the compact encoding
    /// otherwise keeps one palette per move).
    func settlingTargets(_ groups: [PaletteGroup]) -> [Int: Int] {
        guard dither != .none || redraws else { return [:] }
        var groupStarting: [Int: Int] = [:]
        for (g, group) in groups.enumerated() { groupStarting[group.frames.lowerBound] = g }
        var targets: [Int: Int] = [:]
        for (g, group) in groups.enumerated() where group.isMoving {
            let scene = plan.frames[group.frames.lowerBound].scene
            guard SceneEncoder.restFollows(plan, scene: scene),
                  let rest = groupStarting[plan.scenes[scene + 1].frames.lowerBound] else { continue }
            targets[g] = rest
        }
        return targets
    }

    /// ``Settling/from`` for the move that ends where `restGroup` begins: it does not depend
    /// on the rest's palette, so it is made beside it.
    func settlingFrames(before restGroup: PaletteGroup) -> [Int32] {
        let frames = plan.frames
        let restFrame = restGroup.frames.lowerBound
        let move = sceneFrames(of: restFrame - 1)
        let w = plan.width, h = plan.layer.height, layerWidth = plan.layer.width
        var from = [Int32](repeating: Int32(restFrame), count: w * h)
        plan.layer.pixels.withUnsafeBytes { raw in
            let layer = raw.bindMemory(to: UInt32.self)
            from.withUnsafeMutableBufferPointer { from in
                // Backwards from the rest: a pixel settled from frame j+1 settles from j when j shows the same colour.
                // Once no pixel settles from frame j+1, none settles from an earlier one.
                for j in stride(from: restFrame - 1, through: move.lowerBound, by: -1) {
                    let a = frames[j].layerX, b = frames[j + 1].layerX
                    let later = Int32(j + 1), earlier = Int32(j)
                    var moved: Int32 = 0
                    for y in 0..<h {
                        // Through pointers, without overflow checks on the indices, so the loop vectorizes.
                        let settles = from.baseAddress! + y * w
                        let shown = layer.baseAddress! + (y * layerWidth + a), next = layer.baseAddress! + (y * layerWidth + b)
                        for x in 0..<w {
                            // Both comparisons made, with no branch between them.
                            let same: Int32 = (settles[x] == later ? 1 : 0) & (shown[x] == next[x] ? 1 : 0)
                            settles[x] = same != 0 ? earlier : settles[x]
                            moved &+= same
                        }
                    }
                    if moved == 0 { break }
                }
                // Overlays draw over the layer: their pixels are left to each frame.
                forEachOverlayPixel(of: move.lowerBound...restFrame) { from[$0] = .max }
            }
        }
        return from
    }

    /// `body` with every layer-row pixel (as y x width + x) inside an overlay box of the
    /// planned frames `ks`, a pixel once per box that holds it.
    func forEachOverlayPixel(of ks: some Sequence<Int>, _ body: (Int) -> Void) {
        let w = plan.width, h = plan.layer.height
        for k in ks {
            for box in plan.frames[k].overlayBoxes {
                let x0 = max(0, box.x0), x1 = min(w, box.x1), y0 = max(0, box.y0), y1 = min(h, box.y1)
                guard x0 < x1, y0 < y1 else { continue }
                for y in y0..<y1 {
                    for x in x0..<x1 { body(y * w + x) }
                }
            }
        }
    }

    /// Designs the group's palette and maps its region; `picture` gives the picture of a
    /// planned frame (by index into the plan's frames), `previous` the picture before the
    /// group, `settling` where a move comes to rest.
    ///
    /// A dithered moving group is one frame, or two. Its palette is designed for the pixels
    /// its frames draw (those that changed), except those that settle here: pixels that
    /// keep their colour from their frame through the rest that follows take the rest's
    /// own indices, and the rest's colours they show are reserved, where those colours fit in
    /// ``settlingColors(_:)`` and each is worth an entry (``settlingEntryWorth``). The rest
    /// then shows one palette's dithering wherever the move left pixels alone, not a
    /// patchwork of bands, one per moving frame. On a transparent background where frames
    /// are cleared, the hold's colours are kept for the pixels that stand still
    /// (``keepHoldColors``), and a move's end frame close to a hold may take that hold's
    /// palette whole (``holdBeside(_:move:restRedraws:settling:carry:)``).
    func prepare(_ group: PaletteGroup, previous: FramePicture?, settling: Settling?, carry: Carry? = nil,
                 follow: FollowWait? = nil, picture: (Int) -> FramePicture) -> PreparedScene {
        if group.isMoving, dither != .none || redraws, let previous {
            return prepareMovingFrames(group.frames, previous: previous, settling: settling, carry: carry, follow: follow,
                                       picture: picture)
        }
        return prepareRegion(group, picture: picture)
    }

    /// The dithered moving frames of a group: see ``prepare(_:previous:settling:carry:follow:picture:)``.
    /// The group's region spans the views of its frames; a layer pixel that two of them draw
    /// is mapped once, with the pattern fixed to the layer.
    ///
    /// The palette is designed from one in eight of the changed pixels
    /// (``movingSampleSpacing``): the histogram, and the counting of how long each pixel
    /// stays, cost an eighth. Where the sampled colours fit the palette exactly, it is
    /// designed again from every changed pixel, so frames of few colours stay exact.
    private func prepareMovingFrames(_ group: Range<Int>, previous: FramePicture, settling: Settling?, carry: Carry?,
                                     follow: FollowWait? = nil,
                                     picture: (Int) -> FramePicture) -> PreparedScene {
        let w = plan.width, layerHeight = plan.layer.height, layerWidth = plan.layer.width
        let xs = group.map { plan.frames[$0].layerX }
        let regionX = xs.min() ?? 0
        let regionWidth = (xs.max() ?? 0) - regionX + w
        var reserved = overlayReservations
        let maxColors = SceneEncoder.pictureColors(colors, halved: false)
        // The layer pixels of the group's frames per entry: an average entry's share, of which a
        // rest's colour must show a part to be reserved (``settlingWorth``, ``settlingEntryWorth``).
        let entryShare = group.count * w * layerHeight / maxColors
        // The pixels that keep a hold's colour (settling into the rest after the move, or, on a
        // transparent background where frames are cleared, carried from the hold before it), by
        // region pixel, and their entries in the holds' palettes; and which screen pixels of
        // which frame they are (`keptFrom`, the settling map less the pixels left to the group's
        // own entries).
        var keptColors = HeldColors()
        var keptFrom: [Int32] = []
        // The rest after the move draws its pixels again when the frame before it is cleared.
        let move = sceneFrames(of: group.lowerBound)
        let restFrame = move.upperBound
        let restRedraws = settling != nil && restFrame < plan.frames.count && canvas?.clears[restFrame - 1] == true
        // Where the frame takes a palette whole: a hold's (below), or the group before's where it
        // follows that group.
        var takesWhole = false
        // The colours the moving group before left, where the group keeps them (a keeper): they
        // stand in for the hold's it carries (see ``keepers(_:)``), and are kept once the
        // group's own palette is known to lack some (below). They always can: a keeper's
        // background is keyed, so its palettes leave an index past their end (255 entries at
        // most, ``ShownBefore``), and the group before, which it waits for, marks what it shows.
        let isKeeper = follow.map { !$0.whole } ?? false
        let carry = isKeeper ? nil : carry
        let before = carry.map { ShownBefore($0, plan: plan) }
        if keyed, restRedraws || before != nil {
            let nextTo = holdBeside(group, move: move, restRedraws: restRedraws, settling: settling, carry: carry)
            (keptColors, keptFrom, reserved) = keepHoldColors(group, xs: xs, regionX: regionX, regionWidth: regionWidth,
                                                              settling: settling, carry: before, picture: picture,
                                                              limit: nextTo == nil ? SceneEncoder.heldColors(maxColors) : maxColors,
                                                              least: before == nil && nextTo == nil
                                                                  ? entryShare / SceneEncoder.settlingWorth : 0)
            // Where the hold's colours that its still pixels show pass the share, the frame takes
            // the hold's palette whole, if that palette also covers what the frame draws afresh
            // (checked below, once the frame's pixels are sampled).
            if let nextTo, reserved.count > SceneEncoder.heldColors(maxColors) {
                var have = Set(reserved)
                for c in nextTo.palette where reserved.count < maxColors && !have.contains(c) {
                    reserved.append(c)
                    have.insert(c)
                }
                takesWhole = true
            }
        } else if let settling {
            // Settling takes at most half the palette; the rest is for what moves. Where the
            // rest's colours that the settling pixels show pass the half (with the overlays'),
            // none is reserved. Within it, a colour is reserved only where enough pixels settle into it
            // (``settlingEntryWorth``); the others are drawn from the group's own entries, and
            // the settling map leaves them to the frames.
            (keptColors, keptFrom, reserved) = keepHoldColors(group, xs: xs, regionX: regionX, regionWidth: regionWidth,
                                                              settling: settling, carry: nil, picture: picture,
                                                              limit: SceneEncoder.settlingColors(maxColors),
                                                              least: entryShare / SceneEncoder.settlingEntryWorth,
                                                              allOrNone: true)
        }
        // A frame's settling pixels are those the settling map starts at it (none when settling
        // gave way); the drawn pixels that do not settle are what the group's own entries are for.
        var from = keptFrom
        // The region's layer pixels the frames draw from the group's own mapping: only those are mapped.
        var drawn = [Bool](repeating: false, count: regionWidth * layerHeight)
        // Which region pixels are left undithered (edges and texture). Sampled pixels that differ
        // from a neighbour by the mask's edge (bending or not) count in coarse cells.
        let plain = undithered(x: regionX, width: regionWidth)
        let maskBits = mask?.bits ?? []
        // The changed pixels that do not settle, all or one in eight (see above),
        // and how long the layer keeps each one's colour there, in timeline frames; and, for
        // every changed pixel, its flag in `drawn`.
        func collect(sparse: Bool) -> (sample: [UInt8], counts: [UInt8], coarse: [Bool]) {
            let spacing = sparse ? SceneEncoder.movingSampleSpacing : 1
            let capacity = group.count * plan.height * ((w + spacing - 1) / spacing)
            var sample = [UInt8](repeating: 0, count: capacity * 4)
            var counts = [UInt8](repeating: 0, count: capacity)
            var coarse = [Bool](repeating: false, count: plain == nil ? 0 : capacity)
            var sampled = 0
            var before = previous
            var rowChanged = [UInt8](repeating: 0, count: w)
            for (n, k) in group.enumerated() {
                let image = picture(k)
                let shownAt = xs[n], offset = xs[n] - regionX
                let ahead = FramesAhead(plan.frames, after: k + 1, limit: SceneEncoder.shownLongerLimit)
                image.withRows { current in
                    before.withRows { before in
                        plan.layer.pixels.withUnsafeBytes { rawLayer in
                            sample.withUnsafeMutableBytes { rawSample in
                                counts.withUnsafeMutableBufferPointer { counts in
                                    drawn.withUnsafeMutableBufferPointer { drawn in
                                        from.withUnsafeBufferPointer { from in
                                            maskBits.withUnsafeBufferPointer { maskBits in
                                                coarse.withUnsafeMutableBufferPointer { coarse in rowChanged.withUnsafeMutableBufferPointer { rowChanged in
                                                    let layer = rawLayer.bindMemory(to: UInt32.self)
                                                    let sample = rawSample.bindMemory(to: UInt32.self)
                                                    let target = Int32(k)
                                                    let changed = rowChanged.baseAddress!
                                                    for y in 0..<plan.height {
                                                        let row = y * w, layerRow = y * layerWidth
                                                        let regionRow = y * regionWidth + offset
                                                        // The row's changed pixels, 1 or 0, without branches: those whose
                                                        // colour changed, less those that settle here (the settling map
                                                        // covers the layer rows).
                                                        // Through pointers, without overflow checks, so the loops vectorize.
                                                        let now = current(y), then = before(y)
                                                        if y < layerHeight && !from.isEmpty {
                                                            let settles = from.baseAddress! + row
                                                            for x in 0..<w {
                                                                changed[x] = (now[x] != then[x] ? 1 : 0) & (settles[x] != target ? 1 : 0)
                                                            }
                                                        } else {
                                                            for x in 0..<w { changed[x] = now[x] != then[x] ? 1 : 0 }
                                                        }
                                                        if y < layerHeight {
                                                            // The group's first frame is the first to flag its pixels.
                                                            let flags = drawn.baseAddress! + regionRow
                                                            if n == 0 {
                                                                for x in 0..<w { flags[x] = changed[x] != 0 }
                                                            } else {
                                                                for x in 0..<w { flags[x] = (flags[x] ? 1 : 0) | changed[x] != 0 }
                                                            }
                                                        }
                                                        // Sparse: screen pixel (x, y) when x + 3y is a multiple of the spacing (8).
                                                        let first = sparse ? (spacing - (3 * y) % spacing) % spacing : 0
                                                        for x in stride(from: first, to: w, by: spacing) where changed[x] != 0 {
                                                            sample[sampled] = now[x]
                                                            if y < layerHeight {
                                                                if maskBits.count > 0 { coarse[sampled] = DitherMask.differs(maskBits.baseAddress!, layerRow &+ shownAt &+ x) }
                                                                counts[sampled] = ahead.framesKept(layer.baseAddress!, row: layerRow, column: x, shownAt: shownAt)
                                                            } else {
                                                                counts[sampled] = 1
                                                            }
                                                            sampled &+= 1
                                                        }
                                                    }
                                                } }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                // What the next frame is compared with is what this one leaves: cleared, where
                // it is cleared once shown, so the next frame maps every pixel it draws again
                // there (compared with the picture alone, a pixel the two frames show alike was
                // not mapped when this frame did not show it, and the next frame drew entry 0).
                before = canvas?.canvas(after: k, image) ?? image
            }
            sample.removeLast(sample.count - sampled * 4)
            counts.removeLast(counts.count - sampled)
            coarse.removeLast(max(0, coarse.count - sampled))
            return (sample, counts, coarse)
        }
        // The move's last group, whose pixels settle into the rest after it and stay there, is
        // designed from its exact colours where they are few, as a rest is
        // (``PaletteDesigner/exactWhereConcentrated``): where its settling colours pass the
        // share that may be reserved, it draws them itself, and designed from the cells, its
        // entries lay between a banner's gradient steps, which stayed dithered through the
        // rest (docs/behaviour.md, *A move's last frames of few colours*).
        let settlesIntoRest = settling != nil && group.upperBound == sceneFrames(of: group.lowerBound).upperBound
        func design(_ collected: (sample: [UInt8], counts: [UInt8], coarse: [Bool])) -> (palette: [RGBA], exact: Bool) {
            // A palette taken whole leaves nothing to design (the designer would design one
            // entry in place of the last reserved colour).
            if takesWhole { return (reserved, false) }
            var designer = PaletteDesigner(maxColors: maxColors, refinements: SceneEncoder.moveRefinements,
                                           weights: dither.weights, space: dither.space)
            designer.exactWhereConcentrated = settlesIntoRest
            return designer
                .design(RGBAImage(width: collected.sample.count / 4, height: 1, pixels: collected.sample),
                        reserved: reserved, counts: collected.counts, coarse: collected.coarse)
        }
        // The palette is designed from one in eight of the changed pixels; where those few
        // colours fit it exactly (or none was sampled), from all of them, so a frame of few
        // colours keeps every one exactly.
        // What the first pass reserved (the overlays', and the rest's colours for the pixels that
        // settle into it): the colours the group before left get an eighth on top.
        let reservedFirst = reserved.count
        var palette: [RGBA] = [], exact = true
        var sparse = collect(sparse: true)
        // A frame that moved far from the hold, or shows an overlay the hold does not (a finger's
        // touch), draws colours the hold's palette lacks: it keeps the hold's colours up to the
        // share, and designs entries of its own for the rest, as every other moving frame does.
        // A group that follows another takes that group's palette only where it serves the
        // group's sampled pixels about as well as a palette of its own would.
        var designed: (palette: [RGBA], exact: Bool)?
        // Whether the held colours are worked out again (and the palette designed again), and
        // from which colours shown before.
        var keepAgain = false, keepFrom = before, keepsLeft = false
        if let follow, follow.whole, !sparse.sample.isEmpty {
            let own = design(sparse), points = SceneEncoder.samplePoints(sparse.sample)
            if !own.exact, let left = follow.left, SceneEncoder.sampleError(left.palette, points) * 100
                <= SceneEncoder.sampleError(own.palette, points) * SceneEncoder.followErrorPercent {
                takesWhole = true
                reserved = left.palette
            } else {
                designed = own
            }
        } else if takesWhole && !SceneEncoder.covers(reserved, sample: sparse.sample) {
            takesWhole = false
            keepAgain = true
        }
        // The colours the group before left are kept where the group's own palette lacks one
        // that a pixel standing still since shows: drawn again with another entry, it would
        // change on screen. A palette that has them all is kept as it is. A follower that did
        // not take the palette whole does the same where it starts or ends its move
        // (``keepsLeftColors(_:follow:)``).
        if let follow, keepsLeftColors(group, follow: follow), !takesWhole, !sparse.sample.isEmpty {
            let own = designed ?? design(sparse)
            designed = own
            if let left = follow.left,
               let shown = ShownBefore(left, frame: group.lowerBound - 1, picture: picture(group.lowerBound - 1)),
               lacksStillColors(group.lowerBound, before: shown, palette: own.palette, picture: picture) {
                keepAgain = true
                keepFrom = shown
                keepsLeft = true
            }
        }
        if keepAgain {
            // The first pass's pixels go before the second pass reserves room for its own.
            keptColors = HeldColors()
            (keptColors, keptFrom, reserved) = keepHoldColors(group, xs: xs, regionX: regionX, regionWidth: regionWidth,
                                                              settling: settling, carry: keepFrom, picture: picture,
                                                              limit: keepsLeft ? min(SceneEncoder.heldColors(maxColors), reservedFirst + SceneEncoder.leftColors(maxColors))
                                                                  : SceneEncoder.heldColors(maxColors))
            from = keptFrom
            drawn = [Bool](repeating: false, count: regionWidth * layerHeight)
            sparse = collect(sparse: true)
            designed = nil
        }
        if let designed {
            (palette, exact) = designed
        } else if !sparse.sample.isEmpty {
            (palette, exact) = design(sparse)
        }
        if exact {
            var all = collect(sparse: false)
            if all.sample.isEmpty {
                let region = plan.layer.cropped(x: regionX, width: regionWidth, height: layerHeight)
                all = (region.pixels, [UInt8](repeating: 1, count: region.pixels.count / 4),
                       mask?.cut(x: regionX, width: regionWidth, height: layerHeight, differing: true) ?? [])
            }
            (palette, exact) = design(all)
        }
        let mapper = ColorMapper(palette: palette, dither: dither, exact: exact)
        var indices = Quantizer.map(plan.layer, columns: regionX..<(regionX + regionWidth), height: layerHeight,
                                    mapper: mapper, dither: exact ? .none : dither,
                                    transparentIndex: keyed ? mapper.palette.count : nil,
                                    originX: regionX, only: drawn, undithered: plain, plane: plane, layout: .rows,
                                    runSlack: SceneEncoder.orderedRunSlack)
        // A table by the holds' entries: the kept pixels number in the hundreds of thousands.
        if !keptColors.pixels.isEmpty {
            let translate = SceneEncoder.positions(of: keptColors.entryColors, in: palette)
            for kept in keptColors.pixels where translate[kept.entry] >= 0 {
                indices[kept.region] = UInt8(translate[kept.entry])
            }
        }
        return scene(regionX: regionX, regionWidth: regionWidth, indices: indices, mapper: mapper)
    }

    /// Each of `colors`' position in `palette` (its first), or -1 where `palette` lacks it: a
    /// table that moves pixels kept by another palette's entry to this palette's.
    static func positions(of colors: [RGBA], in palette: [RGBA]) -> [Int] {
        var position: [RGBA: Int] = [:]
        for (e, c) in palette.enumerated().reversed() { position[c] = e }
        return colors.map { position[$0] ?? -1 }
    }

    /// The overlay colours reserved in every palette (each once; see ``reservations(_:colors:)``).
    var overlayReservations: [RGBA] {
        var unique: [RGBA] = []
        for c in plan.reservedColors where !unique.contains(c) { unique.append(c) }
        return SceneEncoder.reservations(unique, colors: colors)
    }

    /// A prepared group from its region's indices and the mapper of its palette.
    private func scene(regionX: Int, regionWidth: Int, indices: [UInt8], mapper: ColorMapper) -> PreparedScene {
        let background = plan.background.opaque
        // Overlay and background colours are reserved in the palette, so they are looked up
        // in RGB, where a reserved colour is found exactly (two colours a level apart may share
        // an Oklab point).
        let search = PaletteSearch(palette: mapper.palette, weights: mapper.weights)
        return PreparedScene(regionX: regionX, regionWidth: regionWidth, indices: indices, palette: mapper.palette,
                             search: search, transparentIndex: mapper.palette.count,
                             backgroundIndex: search.nearest(Int32(background.r), Int32(background.g), Int32(background.b)))
    }

    /// A rest, or a move in the compact encoding: the palette is designed for the whole
    /// region the group's frames show.
    private func prepareRegion(_ group: PaletteGroup, picture: (Int) -> FramePicture) -> PreparedScene {
        let frames = plan.frames[group.frames]
        let layerHeight = plan.layer.height
        let xs = frames.map(\.layerX)
        let regionX = xs.min() ?? 0
        let regionWidth = (xs.max() ?? 0) - regionX + plan.width
        let region = plan.layer.cropped(x: regionX, width: regionWidth, height: layerHeight)
        let background = plan.background.opaque
        // The palette also sees the overlays as drawn in this group's frames (edges blend with the content).
        var sample = region.pixels
        if !plan.reservedColors.isEmpty || frames.contains(where: { !$0.overlayBoxes.isEmpty }) {
            for (k, frame) in zip(group.frames, frames) {
                let image = picture(k)
                image.withRows { rows in
                    for box in frame.overlayBoxes {
                        let x0 = max(0, box.x0), x1 = min(image.width, box.x1)
                        let y0 = max(0, box.y0), y1 = min(image.height, box.y1)
                        guard x0 < x1, y0 < y1 else { continue }
                        for y in y0..<y1 {
                            sample += UnsafeRawBufferPointer(start: rows(y) + x0, count: (x1 - x0) * 4)
                        }
                    }
                }
            }
            if plan.height > layerHeight && !keyed {
                sample += [background.r, background.g, background.b, 255]
            }
        }
        let designInput = RGBAImage(width: sample.count / 4, height: 1, pixels: sample)
        // A rest's pixels count more the longer they stay on screen after it (dithered encodings);
        // the overlay samples count once.
        var counts: [UInt8]?
        if dither != .none, !group.isMoving, regionWidth == plan.width {
            counts = restCounts(group) + [UInt8](repeating: 1, count: sample.count / 4 - regionWidth * layerHeight)
        }
        let moving = group.isMoving
        let compact = dither == .none
        let refinements = compact ? PaletteDesigner.defaultRefinements
            : (moving ? SceneEncoder.moveRefinements : SceneEncoder.holdRefinements)
        var designer = PaletteDesigner(maxColors: SceneEncoder.pictureColors(colors, halved: moving && compact),
                                       refinements: refinements, weights: dither.weights, space: dither.space)
        designer.exactWhereConcentrated = !moving
        let (palette, exact) = designer.design(designInput, reserved: overlayReservations, counts: counts)
        let mapper = ColorMapper(palette: palette, dither: dither, exact: exact)
        let indices = Quantizer.map(region, mapper: mapper, dither: exact ? .none : dither,
                                    transparentIndex: keyed ? mapper.palette.count : nil,
                                    runSlack: moving && !exact ? SceneEncoder.moveRunSlack : 0, originX: regionX,
                                    only: nil, undithered: undithered(x: regionX, width: regionWidth),
                                    plane: plane, planeX: regionX)
        return scene(regionX: regionX, regionWidth: regionWidth, indices: indices, mapper: mapper)
    }

    /// How many times each layer pixel a rest shows counts in its palette, row by row: once,
    /// and once more for every frame after the rest that keeps its colour there, up to
    /// ``restStaysLimit``. A pixel the next move leaves alone (a flat background, a vertical
    /// gradient, the edge of the next item peeking in) stays on screen with the rest's
    /// indices through that move, while the rest of the picture is redrawn by every
    /// moving frame with the palettes made for them.
    func restCounts(_ group: PaletteGroup) -> [UInt8] {
        let frames = plan.frames, w = plan.width, h = plan.layer.height, layerWidth = plan.layer.width
        let restX = frames[group.frames.upperBound - 1].layerX
        var counts = [UInt8](repeating: 1, count: w * h)
        let ahead = FramesAhead(frames, after: group.frames.upperBound, limit: SceneEncoder.restStaysLimit)
        let alive = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, w))
        defer { alive.deallocate() }
        plan.layer.pixels.withUnsafeBytes { raw in
            counts.withUnsafeMutableBufferPointer { counts in
                let layer = raw.bindMemory(to: UInt32.self)
                for y in 0..<h {
                    ahead.framesKept(layer, row: y * layerWidth, width: w, shownAt: restX,
                                     into: counts.baseAddress! + y * w, alive: alive)
                }
            }
        }
        return counts
    }

    /// The planned frames after a point that can add to how long a screen pixel keeps its
    /// colour, up to a limit in timeline frames: their layer positions and spans.
    struct FramesAhead {
        private var layerX: [Int] = []
        private var spans: [Int] = []
        private let limit: Int

        /// The frames from `after` on, while the timeline frames before each (1 for the frame
        /// shown, plus the spans of those before it) stay under `limit`.
        init(_ frames: [FramePlan.Frame], after: Int, limit: Int) {
            self.limit = limit
            var n = 1, j = after
            while j < frames.count && n < limit {
                layerX.append(frames[j].layerX)
                spans.append(frames[j].span)
                n += frames[j].span
                j += 1
            }
        }

        /// How many timeline frames, from 1 up to the limit, the screen pixel in column `x` of
        /// one layer row (`row` is the row's start) keeps its colour: 1 for the frame that shows
        /// the layer from `layerX`, and the spans of the frames ahead while they show the same
        /// colour there, as ``framesKept(_:row:width:shownAt:into:alive:)`` gives for a whole
        /// row. One pixel at a time, for the eighth of a moving frame's changed pixels that its
        /// palette samples: most of them change again in the next frame, so the loop mostly
        /// stops at its first comparison, where the row's loop compares every column of the
        /// row for as long as any column keeps its colour (a vertical gradient, where the move
        /// changes nothing, keeps the whole row going through every frame ahead).
        @inline(__always)
        func framesKept(_ layer: UnsafePointer<UInt32>, row: Int, column x: Int, shownAt layerX: Int) -> UInt8 {
            let colour = layer[row + layerX + x]
            var count = 1
            for j in 0..<self.layerX.count {
                guard layer[row + self.layerX[j] + x] == colour else { break }
                count = min(count + spans[j], limit)
            }
            return UInt8(truncatingIfNeeded: count)
        }

        /// For each of the `width` screen columns of one layer row (`row` is the row's start),
        /// how many timeline frames, from 1 up to the limit, the screen pixel keeps its colour:
        /// 1 for the frame that shows the layer from `layerX`, and the spans of the frames
        /// ahead while they show the same colour there. Written to `counts`; the frames ahead
        /// are compared a row at a time, with a flag per column for whether it still shows
        /// its colour, in loops without branches that vectorize. `alive` has room for `width`
        /// flags.
        func framesKept(_ layer: UnsafeBufferPointer<UInt32>, row: Int, width: Int, shownAt layerX: Int,
                        into counts: UnsafeMutablePointer<UInt8>, alive: UnsafeMutablePointer<UInt8>) {
            // Counts stay at most the limit, clamped at every step (the sums only grow, so
            // clamping as they go gives what clamping at the end would).
            precondition((1...127).contains(limit), "FramesAhead: a limit of 1 to 127 keeps two counts' sum in a byte")
            let most = UInt8(limit), shown = layer.baseAddress! + (row + layerX)
            for x in 0..<width {
                counts[x] = 1
                alive[x] = 1
            }
            for j in 0..<self.layerX.count {
                let next = layer.baseAddress! + (row + self.layerX[j]), span = UInt8(min(spans[j], Int(most)))
                var any: UInt8 = 0
                for x in 0..<width {
                    let still = alive[x] & (next[x] == shown[x] ? 1 : 0)
                    alive[x] = still
                    counts[x] = min(counts[x] &+ still &* span, most)
                    any |= still
                }
                if any == 0 { break }
            }
        }
    }

    /// How many times a rest's pixel may count at most (``restCounts(_:)``). Measured with
    /// `bench/quality-probe.py` on the gradients (SSIMULACRA2 mean; frames more than 5 below
    /// pngquant's, the worst gap): every pixel once 80.74, 1 frame (−7.0, the sky peeking in
    /// beside the colour wheel, drawn by the wheel's rest and shown through the move);
    /// at most 4 times 80.39, 1 (−5.3); 6 times 80.80, 0 (−4.1); 8 times 80.92, 0 (−3.1);
    /// 11 times 80.79, 0 (−4.9); 16 or more 80.89, 0 (−4.9). The sample banners and the
    /// photos score 87.74 and 79.19 from 8 up, against 87.80 and 79.25 with every pixel once.
    static let restStaysLimit = 8

    /// Group `g`'s frames encoded: its palette and mapping (`scene`, when its rest was
    /// prepared ahead; `settling`, where its move comes to rest), then each frame composed
    /// and LZW-encoded.
    ///
    /// A group's frames are compared with the frame before them, the last of the group
    /// before: `handoff` passes that picture from one group to the next, so it is made once
    /// where it can be (a group whose worker starts before the other's has made it makes
    /// its own).
    func encodeGroup(_ g: Int, scene ready: PreparedScene?, settling: Settling?, carry: Carry? = nil,
                     follow: FollowWait? = nil, handoff: PictureHandoff? = nil,
                     leaves: ((Follow) -> Void)? = nil) -> [Result<EncodedFrame, CarouselError>] {
        let frames = plan.frames, group = groups[g]
        let last = group.frames.upperBound - 1
        // The last two pictures made are kept: a group's palette reads its frames' pictures
        // (changed pixels, overlay pixels) and its GIF frames are composed from them after. A
        // longer group (three moving frames, a hold, a move in the compact encoding or slow
        // frames where frames are cleared) makes its first pictures again for its GIF frames:
        // a moving frame's picture reads the layer, so keeping three saved next to nothing
        // (`valgrind --tool=callgrind`, the same bytes: photos 5.178 G either way, gradients
        // 11.138 → 11.128 G).
        let first = group.frames.lowerBound
        var previous = first > 0 ? handoff?.take(first - 1) ?? FramePicture(plan, frame: first - 1) : nil
        let pictureBefore = previous
        var made: [(index: Int, image: FramePicture)] = []
        var handed = g + 1 == groups.count
        func picture(_ k: Int) -> FramePicture {
            if let kept = made.first(where: { $0.index == k }) { return kept.image }
            // The frame before the group's (a keeper's check of what it shows) is at hand already.
            if k == first - 1, let pictureBefore { return pictureBefore }
            let image = FramePicture(plan, frame: k)
            if k == last, !handed {
                handoff?.put(k, image)
                handed = true
            }
            if made.count == 2 { made.removeFirst() }
            made.append((k, image))
            return image
        }
        if let canvas, let before = previous { previous = canvas.canvas(after: first - 1, before) }
        let scene = ready ?? prepare(group, previous: previous, settling: settling, carry: carry, follow: follow,
                                     picture: picture)
        var results: [Result<EncodedFrame, CarouselError>] = []
        // Where frames are cleared, pixels drawn again keep what the group drew there (a group of
        // one frame draws none that it drew before, unless the group after follows it; see
        // ``ShownIndices`` for diffusion), and a group that follows another starts from the
        // colours that one left.
        var shown = redraws && (group.frames.count > 1 || leaves != nil || follow != nil) && dither != .diffusion
            ? ShownIndices(width: plan.width, height: plan.height) : nil
        if let follow, let left = follow.left, let pictureBefore {
            if scene.palette == left.palette {
                shown?.seed(left.shown, picture: pictureBefore)
            } else if keepsLeftColors(group.frames, follow: follow) {
                // A group that keeps the colours the group before left (``keepers(_:)``,
                // ``keepsLeftColors(_:follow:)``): each pixel's entry for the same colour in this
                // palette, where it has one.
                let entry = SceneEncoder.positions(of: left.palette, in: scene.palette)
                shown?.seed(left.shown.map { $0 < 0 ? -1 : Int16(entry[Int($0)]) }, picture: pictureBefore)
            }
        }
        // With `leaves`, the group after waits for what this one leaves: every frame is composed
        // before any is LZW-encoded (a group where frames are cleared holds at most
        // ``clearedGroupFrames``, or one more with a move's last frame).
        var composed: [(frame: IndexedFrame, left: Int, top: Int, k: Int)] = []
        func encode(_ indexed: (frame: IndexedFrame, left: Int, top: Int, k: Int)) -> Result<EncodedFrame, CarouselError> {
            let clears = canvas?.clears[indexed.k] ?? false
            return Result { () throws(CarouselError) in
                try GIFWriter.encode(indexed.frame, left: indexed.left, top: indexed.top, delay: frames[indexed.k].delay,
                                     canvasWidth: plan.width, canvasHeight: plan.height, clearAfter: clears)
            }
        }
        for k in group.frames {
            let exact = picture(k)
            var indexed = compose(frames[k], exact: exact, previous: previous, scene: scene, rect: canvas?.rects[k])
            if let kept = shown?.keep(indexed.frame, left: indexed.left, top: indexed.top, picture: exact) { indexed.frame = kept }
            previous = canvas?.canvas(after: k, exact) ?? exact
            if leaves == nil {
                results.append(encode((indexed.frame, indexed.left, indexed.top, k)))
            } else {
                composed.append((indexed.frame, indexed.left, indexed.top, k))
            }
        }
        if let leaves {
            leaves(Follow(palette: scene.palette, shown: shown?.indices ?? []))
            results = composed.map(encode)
        }
        return results
    }

    /// The fewest consecutive moving frames that share a palette when dithering, however far
    /// apart their views lie: two (one left over at a move's end). A palette per move spreads
    /// its entries over both pictures the move passes between and bands mid-move (on the
    /// sample banners, SSIMULACRA2 of move frames 80.2 with one palette per move, 85.7 with
    /// one per frame). Consecutive frames of a move (1/25 s apart at the default 25 fps) show
    /// mostly the same colours, so one palette serves a few, and the group costs one palette
    /// design and one mapping of the layer pixels its frames show (the pattern is fixed to
    /// the layer, so such a pixel's index is the same in each).
    static let movingGroupLeast = 2

    /// The most consecutive moving frames that share a palette when a full palette (256
    /// colours) is dithered in order: three, where their views lie within
    /// ``movingGroupSpread`` of each other and their smooth colours are not many
    /// (``movingGroupColorCells``), before a move's last ``movingGroupTail`` frames.
    /// A third frame takes off a palette design and a mapping of what the three views share.
    ///
    /// Every moving frame scored (`python3 bench/every-move.py WORKLOAD`; bytes, the moving
    /// frames' SSIMULACRA2 mean against pngquant's 86.82 / 78.16 / 79.34, the worst gap to
    /// pngquant's on a frame; sample banners / photos / gradients), with the instructions of
    /// the photos' and the gradients' renders (`valgrind --tool=callgrind`):
    /// - two: 2,097,799 / 8,490,457 / 14,433,813 B, 87.51 / 80.06 / 82.25, −2.2 / −2.8 /
    ///   −1.9; 5.546 and 11.939 G;
    /// - **three within a quarter of the width, but for a move's last two frames**
    ///   (``movingGroupTail``): 2,093,783 / 8,470,194 / 14,167,865 B, 87.41 / 79.79 /
    ///   82.12, −2.2 / −3.5 / −4.5; 5.178 and 11.130 G;
    /// - three within a quarter of the width: 2,089,535 / 8,462,329 / 14,004,761 B,
    ///   87.21 / 79.72 / 81.92, −2.5 / −3.5 / −4.5; 5.174 and 10.394 G;
    /// - three however far apart: 2,072,908 / 8,456,464 / 14,004,761 B, 87.01 / 79.66 /
    ///   81.92, −2.7 / −3.5 / −4.5; 4.801 and 10.390 G, but five PngSuite images at 320x240
    ///   (`bench/option-sweep.py`) had a frame mid-move 5.8 below pngquant's (3.9 with pairs);
    /// - four however far apart: 2,038,176 / 8,420,322 B, the sample banners' moving frames
    ///   86.56, below pngquant's.
    ///
    /// With fewer colours, or error diffusion, each frame's palette counts for more: three
    /// frames a palette took `--colors 128` from a worst frame 4.0 below `pngquant 128` to
    /// 7.1 below (7.6 within a quarter of the width), `--colors 64` from 4 frames more than
    /// 5 below `pngquant 64` to 8, and `--dither diffusion` from 7 frames more than 5 below
    /// pngquant's to 12; those keep groups of two. docs/behaviour.md (*Moving frames share a
    /// palette in threes*) has the rest.
    static let movingFramesPerPalette = 3

    /// Three moving frames share a palette where their views lie within this fraction of the
    /// width of each other (1/4) and their smooth colours are not many
    /// (``movingGroupColorCells``); a move's fast middle goes two frames a palette. Within a
    /// third of the width, five PngSuite images at 320x240 had a frame mid-move 5.8 below
    /// pngquant's; within a quarter, 3.9 below, as with pairs.
    static let movingGroupSpread = 4

    /// A third moving frame joins a group (ordered dithering, 256 colours) only where the
    /// smooth pixels of the three views fill at most this many of the 4,096 cells of
    /// ``DitherMask/fillsColorCells(_:columns:moreThan:)`` (214); where they fill more, the
    /// frames go two to a palette. Smooth pixels take mixes of a few entries each, so the more
    /// colours they span, the more every entry counts. Three views of a colour wheel fill 202
    /// to 578 cells, and sharing 256 entries put frames mid-move 4.5 below pngquant's on the
    /// gradients (a group of 226 cells) and 4.8 below on `others`; three views of the sample
    /// banners fill at most 40, of the photographs 92, and of the gradients' other pictures
    /// 125. The limit lies midway between the group of 226 and the one of 202 cells, the
    /// entry of `others`' colour wheel with `--easing ease-out`, whose frames score within 3.2
    /// of pngquant's as a group of three. Measured on every moving frame (`python3
    /// bench/every-move.py WORKLOAD`, the worst gap to pngquant's; gradients / `others`) and
    /// `others` with `--easing ease-out` (`bench/option-sweep.py`, every fourth frame and every
    /// moving frame): three wherever the views lie close, −4.51 / −4.79 and −4.99; pairs where
    /// the colours are many, −1.19 / −3.34 and −4.06, but −5.04 with `--easing ease-out` where
    /// the group of 202 cells went in pairs too; a palette a frame where the colours are many,
    /// −1.66 / −4.61 and −3.58, but the gradients' render took 12.865 G instructions against
    /// 11.406 G with pairs (11.136 G at acf7e52). docs/behaviour.md (*Moving frames share a
    /// palette in threes*) has the figures.
    static let movingGroupColorCells = 214

    /// A move's last two frames (slowing into a rest, or handing over to the next move) are
    /// in no group of three: they go two frames a palette, as before. With three frames there too, `others`' frame 198
    /// (`bench/quality-bench.py others`), the last but one of the move into its grey
    /// photograph, grouped with two frames further from the rest, fell 5.04 below
    /// pngquant's; with pairs there, no frame of that move is more than 3.3 below. It costs
    /// the gradients half of the instructions three frames save (10.394 G without it, 11.130 G
    /// with it, 11.939 G with pairs), the photos nothing (5.174 and 5.178 G).
    static let movingGroupTail = 2

    /// A dithered moving frame's palette is designed from one in this many of the pixels it
    /// changes: screen pixel (x, y) where x + 3y is a multiple of 8, a lattice that samples
    /// every row and every column. Measured with `bench/quality-probe.py` (bytes; SSIMULACRA2
    /// mean; the worst frame's gap to pngquant's; sample banners / photos / gradients) and
    /// `bench/render-instructions.py`; docs/behaviour.md has the table. One in four (x + 2y a
    /// multiple of 4): 2,806,102 / 9,029,439 / 18,774,551 B; 87.81 / 79.40 / 81.13; −2.5 /
    /// −3.6 / −3.9. One in eight: 2,813,202 / 9,024,478 / 18,800,980 B; 87.87 / 79.28 /
    /// 81.14; −1.9 / −3.9 / −3.5. One in sixteen (x + 5y a multiple of 16): 2,816,432 /
    /// 9,039,621 / 18,828,735 B; 87.69 / 79.24 / 80.96; −2.5 / −4.3 / −4.2.
    static let movingSampleSpacing = 8

    /// k-means passes when dithering, for a hold's palette and a moving frame's. Measured
    /// with `bench/quality-probe.py` (SSIMULACRA2 means, holds / moves passes): 2 / 1 gave
    /// photos 77.45 and gradients 76.08; 4 / 2 gave 77.86 and 76.41 (the sample banners
    /// 87.24 and 87.22); 5 / 3 gave 78.05 and 76.54; 12 / 8 gave photos 78.30. Each pass
    /// looks up the nearest entry of the bins that may have changed theirs, so each costs
    /// time. With the moving frame's palette designed for the pixels it draws, settling and
    /// the perceptual weights, moves with 2, 3 and 4 passes gave (sample banners / photos /
    /// gradients) 87.75 / 79.09 / 80.57, – / – / 80.69 and 87.80 / 79.25 / 80.74; at 4 the
    /// gradient frame at the start of the move off the colour wheel went from 56.8 to 58.4
    /// (pngquant 63.2).
    static let holdRefinements = 4
    static let moveRefinements = 4

    /// The colours a group's picture may use: `colors` (half of it when `halved`: a move
    /// in the compact encoding), and the transparent entry on top, within a GIF table's
    /// 256 entries.
    static func pictureColors(_ colors: Int, halved: Bool) -> Int {
        min(GIFWriter.maximumColors - 1, halved ? max(2, colors / 2) : colors)
    }

    /// The overlay colours kept exact in the palette: all of them when they take at most a
    /// quarter of `colors`, otherwise none (with 2 or 3 colours the picture needs them all;
    /// overlays then map to the nearest designed colour).
    static func reservations(_ overlayColors: [RGBA], colors: Int) -> [RGBA] {
        overlayColors.count * 4 <= colors ? overlayColors : []
    }

    /// How many times a moving frame's pixel may count in its palette at most: it counts once
    /// for each timeline frame that the layer keeps its colour there (as a rest's pixels do,
    /// ``restCounts(_:)``). A pixel the
    /// move leaves alone stays on screen long after the frame that draws it, while most
    /// of a moving picture is redrawn by the next frame. Measured with
    /// `bench/quality-probe.py` (SSIMULACRA2 means, sample banners / photos / gradients):
    /// every pixel once 87.72 / 79.11 / 80.48 (3 gradient frames more than 5 below
    /// pngquant's, the worst 9.7); at most 4 times 87.75 / 79.09 / 80.48; at most 16
    /// times 87.75 / 79.09 / 80.57 (2 frames, the worst 6.9); 64 or more, the same.
    static let shownLongerLimit = 16

    /// How many of a moving frame's `maxColors` entries a hold's colours may take on a
    /// transparent background where frames are drawn again (``keepHoldColors``): five
    /// eighths, so three eighths are designed for what moves. Measured with
    /// `python3 bench/transparent-check.py BIN -- --spacing 16 --item-width 560` (bytes;
    /// pixels that change where the exact frames do not; SSIMULACRA2 on white, mean and
    /// worst of every 12th frame): three quarters (``PaletteDesigner/reservable(_:)``, then
    /// also the settling's limit on an opaque background) 2,086,051, 4,052, 88.40 (worst 77.14, the
    /// first frame of a move); **five eighths** 2,086,596, 4,873, 88.56 (80.88); a half
    /// 2,085,315, 8,168, 88.60 (81.89). Whole frames, each with its own palette, gave
    /// 2,780,576, 9,563, 88.37 (80.43). A move's first frame after a cleared hold and its last
    /// before a rest it redraws, each a group of its own, take the hold's palette whole where the
    /// hold's colours their still pixels show pass this share, the frame lies close to the hold
    /// and the hold's palette covers it (``holdBeside(_:move:restRedraws:settling:carry:)``,
    /// ``covers(_:sample:)``; docs/behaviour.md, *A move's ends take the hold's palette*).
    static func heldColors(_ maxColors: Int) -> Int { maxColors * 5 / 8 }

    /// On a transparent background where a move's pixels settle into a rest that is drawn
    /// again, and the group keeps no colours shown before it (neither a hold's nor the group
    /// before's) and is not a frame near the rest that may take the rest's palette whole
    /// (``holdBeside(_:move:restRedraws:settling:carry:)``), a rest's colour takes one of the
    /// group's entries only where the pixels settling into it number at least 1/`settlingWorth`
    /// of the group's layer pixels per entry (its frames' pixels over `maxColors`): half an
    /// average entry's. A slow move (`--duration 1`) groups up to eight frames; reserving
    /// every colour its settling pixels show, up to ``heldColors(_:)``, took 117 to 159 of 255
    /// entries for a few percent of the group's pixels, and the item leaving the view striped.
    /// Measured on the 1125x665 gradients with `python3 bench/transparent-check.py BIN
    /// --frames 200-226 --every 1 --beside --per-frame -- bench/.cache/gradients/*.png --size
    /// 1125x665 --item-width 1035 --spacing 16 --duration 1` (the worst of the second move's
    /// frames against `pngquant 256`'s; the pixels that change where the exact frames do not,
    /// over the GIF): every colour −31.37, 903,511; 1/8 −11.71, 1,296,313; 1/4 −8.42,
    /// 1,407,469; **1/2** −6.45, 1,414,840; none −6.45, 1,437,143. Those pixels change once,
    /// as the rest appears, where they kept the rest's colour before (docs/behaviour.md,
    /// *Settling colours by worth*).
    static let settlingWorth = 2

    /// How many of a moving group's `maxColors` entries the colours the moving group before
    /// left may take (``keepers(_:)``), beside those the group reserved already (the overlays',
    /// the rest's for pixels settling into it): an eighth. Measured, while slow groups kept
    /// them too and before a group checked its own palette first, with `python3
    /// bench/transparent-check.py BIN --every 1 -- --spacing 16 --item-width 560 --script S`
    /// (pixels that change where the exact frames do not; SSIMULACRA2 on white over every
    /// frame, mean and worst), before keeping them / an eighth / three eighths / five eighths:
    /// a slow drag (`drag -10 2; release; hold 0.4`) 471,464; 85.46 (83.71) / 347,021; 85.17
    /// (83.17) / 208,631; 83.82 (80.34) / 140,131; 82.23 (75.79): the more such colours a
    /// slow group keeps, the fewer its moving pixels get, group after group. Two swipes
    /// (`hold 0.2; swipe next 0.1; hold 0.4; swipe next 0.3; hold 0.6`) 18,815; 87.23
    /// (84.41) / 7,836; 87.03 (84.51) / 7,236; 86.97 (84.28) / 7,236; 86.97 (84.28).
    static func leftColors(_ maxColors: Int) -> Int { maxColors / 8 }

    /// How many of a moving frame's `maxColors` entries the rest's colours may take where the
    /// frame's pixels settle into the rest after the move (``Settling``, an opaque
    /// background): half, so half is designed for what still moves; past it, the frame draws
    /// its settling pixels itself. Scored on every moving frame (`python3 bench/every-move.py
    /// gradients`: bytes, the moving frames' SSIMULACRA2 mean against pngquant's 79.34, the
    /// frames more than 5 below pngquant's and the worst gap): three quarters 14,524,166,
    /// 80.21, 4 (−11.8: the retina's optic disc posterized as a move closes, the colour
    /// wheel striped and shifted mid-move); five eighths 14,497,124, 80.57, 2 (−10.0);
    /// **a half** 14,417,007, 80.87, 0 (−2.8); three eighths 14,434,173, 80.88, 0 (−2.7).
    /// The sample banners' and the photographs' GIFs are the same bytes at each.
    static func settlingColors(_ maxColors: Int) -> Int { maxColors / 2 }

    /// Where a moving group's pixels settle into the rest after the move and the rest is not
    /// drawn again (an opaque background, or a transparent one whose frames before the rest are
    /// not cleared), and the rest's colours they show fit in
    /// ``settlingColors(_:)``, a rest's colour takes one of the group's entries only where the
    /// pixels settling into it number at least 1/`settlingEntryWorth` of the group's layer
    /// pixels per entry (its frames' pixels over `maxColors`): an eighth of an average entry's.
    /// An overlay's colour (a dot's, the touch indicator's) is reserved anyway, so it needs no
    /// count. The other settling pixels are drawn from the group's own entries and keep them
    /// through the rest, which draws only what changed. As an eased move slows into its rest, a
    /// picture whose colour changes slowly across it settles a few pixels at a time, in many
    /// colours: reserving every one took 119 entries for 8% of the pixels of the sample
    /// banners' frames 123 and 124 with `--easing ease-out --duration 0.5`, and what still
    /// moved striped. They scored 82.35 and 86.63 against `pngquant 256`'s 87.60 and 88.19;
    /// with this, 87.55 and 89.66.
    ///
    /// Measured with `bench/quality-probe.py WORKLOAD` and `bench/every-move.py WORKLOAD`
    /// (bytes; SSIMULACRA2 mean of the sampled frames; the moving frames' mean; sample
    /// banners / photos / gradients / `others`): every colour reserved (before) 2,169,548 /
    /// 8,619,780 / 14,821,284 / 11,373,957 bytes, 88.60 / 80.93 / 82.37 / 84.25, moves 87.06 /
    /// 79.41 / 80.99 / 82.71; **an eighth** 2,166,813 / 8,577,740 / 14,887,390 / 11,307,048,
    /// 88.62 / 81.03 / 82.48 / 84.27, moves 87.21 / 79.81 / 81.25 / 82.73. With the worth
    /// applied before the half (a group whose colours pass the half reserving those worth an
    /// entry instead of giving way): a half 2,172,944 / 8,569,707 / 14,918,025 / 11,304,764, 88.63 /
    /// 81.03 / 82.31 / 84.18; a quarter 2,180,098 / 8,570,014 / 14,926,829 / 11,304,529, 88.64
    /// / 81.03 / 82.44 / 84.18; an eighth 2,181,576 / 8,577,740 / 14,945,749 / 11,305,200,
    /// 88.65 / 81.03 / 82.58 / 84.28; a sixteenth 2,166,776 / 8,580,543 / 14,965,001 /
    /// 11,279,827, 88.63 / 81.03 / 82.58 / 84.24, with a gradients frame more than 5 below
    /// pngquant's. That order also reserved 106 colours of a group that gave way before, whose
    /// moving pixels' error then rose (`settlingLeavesHalfThePaletteToWhatMoves`).
    static let settlingEntryWorth = 8

    /// Extra squared error a moving pixel may take to repeat its left neighbour's index.
    static let moveRunSlack: Int32 = 16

    /// Extra squared distance in Oklab points (``Oklab``: lightness 0...990) a dithered
    /// moving frame's undithered pixel (edges and texture, ``DitherMask``) may take to repeat
    /// its left neighbour's index: the runs LZW codes cheaply, where the picture masks the
    /// error. Mapped once per palette group in strip coordinates, so the repeats travel with
    /// the content. Measured with `bench/quality-probe.py` (bytes as a multiple of ffmpeg's,
    /// SSIMULACRA2 mean, the worst frame's gap to pngquant's; sample banners / photos /
    /// gradients): 0 gave 0.845 / 1.028 / 0.891x at 88.63 / 80.84 / 82.59 (−1.7 / −2.7 /
    /// −3.4); 50 0.831 / 0.992 / 0.844x at 88.61 / 80.65 / 82.41 (−1.7 / −3.1 / −3.3);
    /// **64** 0.829 / 0.983 / 0.835x at 88.60 / 80.55 / 82.34 (−1.7 / −3.3 / −3.3); 100
    /// 0.825 / 0.964 / 0.817x at 88.56 / 80.26 / 82.12 (−1.8 / −3.9 / −3.3); 150 0.820 /
    /// 0.942 / 0.799x at 88.49 / 79.77 / 81.78 (−2.1 / −4.9 / −3.5); 200 photos 0.922x at
    /// 79.19 with 2 frames more than 5 below pngquant's.
    static let orderedRunSlack: Int32 = 64

    /// The GIF frame for `frame`: the rectangle that changed since `previous` (or `rect`, on
    /// a transparent background), with every pixel whose exact colour did not change left
    /// transparent.
    func compose(_ frame: FramePlan.Frame, exact: FramePicture, previous: FramePicture?,
                 scene: PreparedScene, rect given: FrameCanvas.Rect? = nil) -> (frame: IndexedFrame, left: Int, top: Int) {
        let layerHeight = plan.layer.height
        let width = exact.width
        let rect = given?.tuple ?? previous.map { exact.changedRect(from: $0) } ?? (0, 0, width, exact.height)
        let transparent = UInt8(scene.transparentIndex)
        guard rect.2 > 0 else {
            return (IndexedFrame(width: 1, height: 1, palette: scene.palette + [.clear], indices: [transparent],
                                 transparentIndex: scene.transparentIndex), 0, 0)
        }
        let (left, top, w, h) = rect
        let boxes = frame.overlayBoxes
        var indices = [UInt8](repeating: transparent, count: w * h)
        let offset = frame.layerX - scene.regionX
        let hasPrevious = previous != nil
        // Overlay pixels by colour, in a small direct-mapped cache: a dot's few edge colours repeat row after row.
        var overlayColors = [UInt32](repeating: 0, count: 256), overlayIndices = [Int16](repeating: -1, count: 256)
        // Without a frame before, `before` is never read.
        exact.withRows { current in
            (previous ?? exact).withRows { before in
                scene.indices.withUnsafeBufferPointer { region in
                    indices.withUnsafeMutableBufferPointer { out in
                        for y in top..<(top + h) {
                            let spans = boxes.filter { y >= $0.y0 && y < $0.y1 }.map { $0.x0..<$0.x1 }
                            let now = current(y), then = before(y), outRow = (y - top) * w - left
                            let regionRow = y * scene.regionWidth + offset
                            if spans.isEmpty && y < layerHeight {
                                // No overlay on this row: each pixel the region's index, or transparent where
                                // it did not change (a select, without branches; through pointers, with no
                                // overflow checks on the indices, so the loop vectorizes).
                                let to = out.baseAddress! + (outRow + left), from = region.baseAddress! + (regionRow + left)
                                if hasPrevious {
                                    let now = now + left, then = then + left
                                    for x in 0..<w {
                                        // Both sides read, then blended by a mask: no load depends on the comparison.
                                        let index = from[x], same: UInt8 = now[x] == then[x] ? 0xFF : 0
                                        to[x] = (index & ~same) | (transparent & same)
                                    }
                                } else {
                                    to.update(from: from, count: w)
                                }
                                continue
                            }
                            for x in left..<(left + w) {
                                let c = now[x]
                                // Unchanged, or transparent (never drawn over: see `keyed`).
                                if hasPrevious && then[x] == c || keyed && c >> 24 == 0 { continue }
                                if !spans.isEmpty && spans.contains(where: { $0.contains(x) }) {
                                    let slot = Int((c &* 2_654_435_761) >> 24)
                                    if overlayColors[slot] != c || overlayIndices[slot] < 0 {
                                        overlayColors[slot] = c
                                        overlayIndices[slot] = Int16(scene.search.nearest(Int32(c & 0xFF), Int32((c >> 8) & 0xFF),
                                                                                          Int32((c >> 16) & 0xFF)))
                                    }
                                    out[outRow + x] = UInt8(overlayIndices[slot])
                                } else if y < layerHeight {
                                    out[outRow + x] = region[regionRow + x]
                                } else {
                                    out[outRow + x] = scene.backgroundIndex
                                }
                            }
                        }
                    }
                }
            }
        }
        return (IndexedFrame(width: w, height: h, palette: scene.palette + [.clear], indices: indices,
                             transparentIndex: scene.transparentIndex), left, top)
    }
}
