#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns the command line's IMAGES (files and folders) into decoded images.
public enum ImageInputs {
    /// The PNG files `paths` name: files as given, folders as their `*.png` in natural order (2 before 10).
    public static func resolve(_ paths: [String]) throws(CarouselError) -> [URL] {
        var urls: [URL] = []
        let fm = FileManager.default
        for path in paths {
            guard let isFolder = Paths.isFolder(path) else {
                throw .input(path, "no such file or folder")
            }
            guard isFolder else {
                urls.append(URL(fileURLWithPath: path))
                continue
            }
            let names: [String]
            do {
                names = try fm.contentsOfDirectory(atPath: path)
            } catch {
                throw .input(path, "cannot list folder: \(FileErrors.reason(error, path: path))")
            }
            let pngs = names.filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }
                .sorted { naturalOrder($0, $1) }
            guard !pngs.isEmpty else { throw .emptyFolder(path) }
            let folder = URL(fileURLWithPath: path, isDirectory: true)
            urls += pngs.map { folder.appendingPathComponent($0) }
        }
        guard !urls.isEmpty else { throw .noImages }
        return urls
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

    /// Whether `a` sorts before `b` with runs of digits compared as numbers ("img2" < "img10").
    public static func naturalOrder(_ a: String, _ b: String) -> Bool {
        let x = runs(a), y = runs(b)
        for (p, q) in zip(x, y) where p != q {
            switch (UInt64(p), UInt64(q)) {
            case let (m?, n?) where m != n: return m < n
            case (_?, _?): return p.count < q.count
            default: return p.lowercased() != q.lowercased() ? p.lowercased() < q.lowercased() : p < q
            }
        }
        return x.count != y.count ? x.count < y.count : a < b
    }

    private static func runs(_ s: String) -> [String] {
        var out: [String] = []
        var current = ""
        var digits = false
        for c in s {
            let d = c.isASCII && c.isNumber
            if !current.isEmpty && d != digits {
                out.append(current)
                current = ""
            }
            digits = d
            current.append(c)
        }
        if !current.isEmpty { out.append(current) }
        return out
    }
}
