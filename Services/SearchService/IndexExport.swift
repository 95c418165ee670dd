import Foundation
import LocalPlatform

/// `search-service --snapshot-to DIRECTORY`: a consistent copy of a search
/// worker's index, taken while it runs, in a new owner-only directory,
/// with ranking postings that hold exactly its documents. Moved to
/// another host (`scp -rp`, `rsync -a`), it is where a worker there starts
/// (`--index-dir DIRECTORY`): it pulls only the changes after the copy's
/// sequence, and ranks at once, instead of building from the whole feed.
enum IndexExport {
    /// Copies the index in the directory `source` to the new directory
    /// `target`; answers what it wrote, said for a person.
    static func export(from source: String, to target: String) async throws(IndexDirectoryError) -> String {
        let started = ContinuousClock.now
        let index = source + "/" + IndexDirectory.indexFile
        guard FileManager.default.fileExists(atPath: index) else { throw .noIndex(source) }
        try makeEmpty(target)
        let copy = target + "/" + IndexDirectory.indexFile
        let postings = target + "/" + IndexDirectory.postingsFile
        do {
            let applied = try IndexSnapshot.copy(from: index, to: copy)
            // The source's saved postings: the copy names them if the source did when it was taken.
            try? FileManager.default.copyItem(atPath: source + "/" + IndexDirectory.postingsFile, toPath: postings)
            let copied = try SQLiteSearchIndex(path: copy, exclusive: true, postingsPath: postings)
            var built = ""
            if try await !copied.restoreRanking().isRestored {
                try? FileManager.default.removeItem(atPath: postings)
                let documents = try await copied.loadRanking()
                built = " (built from its \(documents) documents)"
            }
            try await copied.saveRanking()
            let documents = try await copied.documentCount()
            let megabytes = [copy, postings].map { path in
                String(format: "%.0f MB", Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_048_576)
            }
            return """
                search-service: snapshot of \(source) at sequence \(applied), \(documents) documents, written to \(target) \
                in \(started.duration(to: .now)): index \(megabytes[0]), ranking postings \(megabytes[1])\(built).
                Move the directory to the other host as it is (scp -rp, rsync -a: it must stay owner-only), then start
                search-service --index-dir <that directory> there: it pulls only the changes after sequence \(applied).

                """
        } catch {
            try? FileManager.default.removeItem(atPath: target)
            throw .cannotSnapshot(target, "\(error)")
        }
    }

    /// Makes `path` owner-only; one that exists must be an empty directory.
    private static func makeEmpty(_ path: String) throws(IndexDirectoryError) {
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: path) {
            guard entries.isEmpty else { throw .cannotSnapshot(path, "it exists and is not empty; a snapshot goes to a new directory") }
            chmod(path, 0o700)
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotSnapshot(path, error.localizedDescription)
        }
    }
}
