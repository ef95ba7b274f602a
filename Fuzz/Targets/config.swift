import Foundation

/// libFuzzer target: config files (strict JSON, keys, types, ranges), applied to the
/// options and validated. Must load or throw `CarouselError`; never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    guard let file = try? ConfigFile(data: data, path: "/nonexistent/fuzz.json") else { return 0 }
    var options = CarouselOptions()
    guard (try? file.apply(to: &options)) != nil else { return 0 }
    _ = try? options.validate()
    return 0
}
