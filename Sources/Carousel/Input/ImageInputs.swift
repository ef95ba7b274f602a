#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns IMAGES (files and folders) into the files they name, in order, and files into decoded
/// images (``Carousel/init(contentsOf:options:)`` decodes them one at a time as it fits them).
public enum ImageInputs {
    /// The PNG files `paths` name: files as given, folders as their `*.png` in natural order
    /// (``naturalOrder(_:_:)``: 2 before 10, case aside).
    public static func resolve(_ paths: [String]) throws(CarouselError) -> [URL] {
        var urls: [URL] = []
        for path in paths {
            guard let isFolder = Paths.isFolder(path) else {
                throw .input(path, Paths.missingReason(errno))
            }
            // A relative path found from a current folder that has been deleted (`../x.png`)
            // is refused as a relative output is; before, Foundation's lookup made it a URL
            // that is not a file's ("not a file URL").
            if !path.hasPrefix("/"), Paths.currentFolder() == nil, errno == ENOENT {
                throw .input(path, Paths.currentFolderGone)
            }
            guard isFolder else {
                urls.append(fileURL(path))
                continue
            }
            let pngs = try listing(ofFolder: path)
            let folder = fileURL(path, isDirectory: true)
            urls += pngs.map { folder.appendingPathComponent($0) }
        }
        guard !urls.isEmpty else { throw .noImages }
        return urls
    }

    /// The `*.png` files of the folder at `path`, in natural order; a folder with no PNG files
    /// is refused, saying so when it holds images in other formats.
    private static func listing(ofFolder path: String) throws(CarouselError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw .input(path, "cannot list folder: \(FileErrors.reason(error, path: path))")
        }
        // Files only: a folder whose name ends in .png is passed over. A name that is not
        // UTF-8 is listed with U+FFFD in place of its bytes, under which nothing is found.
        var pngs: [String] = []
        for name in names where name.lowercased().hasSuffix(".png") && !name.hasPrefix(".") {
            var info = stat()
            let listed = Paths.join(path, name)
            if stat(listed, &info) != 0 {
                guard !name.unicodeScalars.contains("\u{FFFD}") else {
                    throw .input(listed, "the file's name is not UTF-8 text; rename it")
                }
                pngs.append(name)
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: continue
            case S_IFIFO:
                // A FIFO waits for a writer; one the user did not name would hold the run
                // without a word. Named itself, it is read.
                throw .input(listed, "a FIFO found in a folder; give the FIFO itself to read it")
            default: pngs.append(name)
            }
        }
        guard !pngs.isEmpty else {
            let others = otherImages(inFolder: path)
            guard others.isEmpty else {
                throw .input(path, "folder has no .png files but has other images (\(others)); convert them to PNG first")
            }
            throw .emptyFolder(path)
        }
        return pngs.sorted { naturalOrder($0, $1) }
    }

    /// The folders among `paths` that hold images in other formats beside their PNG files,
    /// each with those images counted by extension ("2 .HEIC, 1 .jpg"), in the order given:
    /// what ``resolve(_:)`` passes over, for the command line to say so. A folder that
    /// ``resolve(_:)`` refuses is not listed, and one given twice, however spelt, is listed once.
    /// The file at `output`, where the run writes, is not counted: the GIF of an earlier run
    /// into the folder is not a picture left out.
    package static func passedOver(_ paths: [String], output: String? = nil) -> [(folder: String, images: String)] {
        var found: [(folder: String, images: String)] = []
        var written = stat()
        let outputFile = output.flatMap { $0 != "-" && stat($0, &written) == 0 ? [UInt64(truncatingIfNeeded: written.st_dev), UInt64(written.st_ino)] : nil }
        // A folder is known by its device and inode, however its path is spelt (`imgs`, `imgs/`).
        var seen: Set<[UInt64]> = []
        for path in paths where Paths.isFolder(path) == true {
            var info = stat()
            guard stat(path, &info) == 0, seen.insert([UInt64(truncatingIfNeeded: info.st_dev), UInt64(info.st_ino)]).inserted,
                  (try? listing(ofFolder: path)) != nil else { continue }
            let others = otherImages(inFolder: path, excluding: outputFile)
            if !others.isEmpty { found.append((path, others)) }
        }
        return found
    }

    /// The URL of `path` as the file system reads it. Foundation takes a leading `~` or `~user`
    /// for a home folder, where the path names a file or folder in the working directory whose
    /// name starts with `~` (the existence check found it there); such a path is given from `./`.
    /// A relative path is made relative to the working directory as `getcwd` gives it, at any
    /// length: Foundation's own lookup gave up past about a thousand bytes, and the URL it made
    /// then was refused as `not a file URL`.
    static func fileURL(_ path: String, isDirectory: Bool = false) -> URL {
        let given = path.hasPrefix("~") ? "./" + path : path
        guard !given.hasPrefix("/"), let here = Paths.currentFolder() else {
            return URL(fileURLWithPath: given, isDirectory: isDirectory)
        }
        return URL(fileURLWithPath: given, isDirectory: isDirectory, relativeTo: URL(fileURLWithPath: here, isDirectory: true))
    }

    /// The extensions of images in other formats, as a folder's names give them.
    private static let otherImageExtensions: Set<String> = ["jpg", "jpeg", "heic", "heif", "webp", "gif", "tif", "tiff", "bmp", "avif", "jxl"]

    /// How many of the files in the folder at `path` are regular files named as images in other
    /// formats, by extension as written: "1 .HEIC, 3 .jpg"; empty when there are none. Hidden
    /// files are passed over, as they are for PNG, and so is the file whose device and inode
    /// are `excluded`. Names are read as bytes, so a name that is not UTF-8 (`caf\xE9.JPG`)
    /// counts by its extension like any other.
    static func otherImages(inFolder path: String, excluding excluded: [UInt64]? = nil) -> String {
        guard let listing = opendir(path) else { return "" }
        defer { closedir(listing) }
        var folder = Array(path.utf8)
        if folder.last != UInt8(ascii: "/") { folder.append(UInt8(ascii: "/")) }
        var counts: [String: Int] = [:]
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard name.first != UInt8(ascii: "."), let dot = name.lastIndex(of: UInt8(ascii: ".")) else { continue }
            let ext = String(decoding: name[dot...], as: UTF8.self)
            guard otherImageExtensions.contains(ext.dropFirst().lowercased()) else { continue }
            var info = stat()
            let found = (folder + name + [0]).withUnsafeBufferPointer { full in
                full.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) == 0 }
            }
            guard found, info.st_mode & S_IFMT == S_IFREG,
                  [UInt64(truncatingIfNeeded: info.st_dev), UInt64(info.st_ino)] != excluded else { continue }
            counts[ext, default: 0] += 1
        }
        return counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    /// Decodes every file, in parallel; the first failure in input order is thrown, naming its file.
    public static func load(_ urls: [URL]) throws(CarouselError) -> [RGBAImage] {
        try images(urls.parallelMap { url in
            Result { () throws(PNGError) in try PNGCodec.decode(contentsOf: url) }
        })
    }

    /// Decodes PNG files held in memory, in parallel; the first failure in order is thrown,
    /// naming its file by `name`.
    public static func decode(_ files: [(name: String, data: Data)]) throws(CarouselError) -> [RGBAImage] {
        try images(files.parallelMap { file in
            Result { () throws(PNGError) in try PNGCodec.decode(file.data, name: file.name) }
        })
    }

    /// The decoded images in order, or the first failure.
    private static func images(_ results: [Result<RGBAImage, PNGError>]) throws(CarouselError) -> [RGBAImage] {
        var images: [RGBAImage] = []
        for result in results {
            switch result {
            case .success(let image): images.append(image)
            case .failure(let error): throw .image(error)
            }
        }
        return images
    }

    /// Whether `a` sorts before `b` with runs of digits compared as numbers ("img2" < "img10"),
    /// as the Finder lists names: other characters compare one by one without their case
    /// (`banner.png` before `banner2.png`, as `.` comes before `2`), so `img1`, `img2`, `IMG3`,
    /// `img10` keep that order. Names equal that way are told apart where they first differ:
    /// two numbers by their leading zeros (`1` before `01`), other characters as they are
    /// (capitals before small letters).
    ///
    /// It is a strict weak ordering on every name (the sort, and so the output, never depends
    /// on the order the folder lists its files), and only equal names are equivalent: two names
    /// equal in every other way, as canonically equivalent text is (`café` composed and
    /// decomposed), are told apart by their Unicode scalars.
    public static func naturalOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a), y = Array(b)
        let loose = compare(x, y, exactly: false)
        if loose != 0 { return loose < 0 }
        let exact = compare(x, y, exactly: true)
        if exact != 0 { return exact < 0 }
        return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) { $0.value < $1.value }
    }

    /// -1, 0 or 1 as `x` sorts before, with or after `y`: where both have a run of digits, the
    /// runs by value (of any length: leading zeros dropped, then the shorter first, then digit
    /// by digit), and `exactly`, by their length when their values are equal; other characters
    /// one by one, lowercased unless `exactly`, a run of digits against one of them standing
    /// as `0` (so a run sorts the same way against a character whatever its digits, a grapheme
    /// such as `1️⃣` being no digit); a name that ends first sorts first.
    private static func compare(_ x: [Character], _ y: [Character], exactly: Bool) -> Int {
        func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
        func sign(_ less: Bool) -> Int { less ? -1 : 1 }
        func text(_ c: Character) -> String { isDigit(c) ? "0" : exactly ? String(c) : c.lowercased() }
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                var m = i, n = j
                while m < x.count && isDigit(x[m]) { m += 1 }
                while n < y.count && isDigit(y[n]) { n += 1 }
                let p = x[i..<m].drop { $0 == "0" }, q = y[j..<n].drop { $0 == "0" }
                if p.count != q.count { return sign(p.count < q.count) }
                if !p.elementsEqual(q) { return sign(p.lexicographicallyPrecedes(q)) }
                if exactly && m - i != n - j { return sign(m - i < n - j) }
                i = m
                j = n
                continue
            }
            let c = text(x[i]), d = text(y[j])
            if c != d { return sign(c < d) }
            i += 1
            j += 1
        }
        return i < x.count ? 1 : (j < y.count ? -1 : 0)
    }
}
