import Foundation
import Logging
import Skiff
import SkiffCore
import SkiffServer
import TerminalUI

/// `skiff`: the terminal wallet. Starts its own server on 127.0.0.1 unless `--server` names one.
@main
enum SkiffCommand {
    /// Synchronous, so the main thread can serve the main actor itself (`MainThreadLoop`, decision 0171) once the
    /// program's work is started in a task; that task ends the process.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let generated = CommandLineOptions.generated(for: arguments) {
            print(generated, terminator: "")
            exit(0)
        }
        let options: CommandLineOptions
        do {
            switch try CommandLineOptions.resolve(arguments, environment: ProcessInfo.processInfo.environment) {
            case .help:
                print(CommandLineOptions.help, terminator: "")
                exit(0)
            case .version:
                print(SkiffVersion.line(program: "skiff", commit: BuildInfo.commit))
                exit(0)
            case .printConfig(let resolved):
                print(resolved.configurationText, terminator: "")
                exit(0)
            case .run(let parsed):
                options = parsed
            }
        } catch let error as CommandLineOptions.UsageError {
            FileHandle.standardError.write(Data(CommandLineOptions.usageMessage(for: error).utf8))
            exit(64)  // EX_USAGE
        } catch {
            // A configuration file that cannot be used: refused whole, with its line and key.
            FileHandle.standardError.write(Data("skiff: \(error)\n".utf8))
            exit(78)  // EX_CONFIG
        }
        Task {
            do {
                try await run(options)
                exit(0)
            } catch let failure as ExitStatus {
                exit(failure.status)
            } catch {
                FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
                exit(1)
            }
        }
        MainThreadLoop.run()
    }

    static func run(_ options: CommandLineOptions) async throws {
        var trust = ServerTrust.system
        if let certificateAuthorityFile = options.certificateAuthorityFile {
            do {
                trust = try ServerTrust(certificateAuthorityFile: certificateAuthorityFile)
            } catch {
                throw StartupError(description: error.description)
            }
        }

        let environment = ProcessInfo.processInfo.environment
        let paths = options.dataDirectory.map { AppPaths.rooted(at: URL(fileURLWithPath: $0, isDirectory: true)) } ?? AppPaths.standard(environment: environment)
        // Every file the app, SQLite or the embedded server creates is the owner's alone from its first byte.
        umask(0o077)
        let folderNotices: [String]
        do {
            folderNotices = try paths.preparePrivateFolders()
        } catch {
            throw StartupError(description: "\(error)")
        }

        let sink: FileLogHandler.Sink
        do {
            sink = try FileLogHandler.Sink(file: paths.logFile)
        } catch {
            throw StartupError(description: "Cannot write the log at \(paths.logFile.path): \(error.localizedDescription)")
        }
        let level: Logger.Level = environment["SKIFF_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in FileLogHandler(label: label, sink: sink, level: level) }
        let logger = Logger(label: "skiff")
        for notice in folderNotices {
            logger.notice("\(notice)")
            FileHandle.standardError.write(Data("skiff: \(notice)\n".utf8))
        }

        // The built-in server starts once the first screen is on the terminal: Login is drawn at once, and a request
        // made before the server listens waits for it (ServerEndpoint). Preparing it beside the first frame, on two
        // cores, made that frame 20 ms later (BENCHMARKS.md).
        let (firstFrame, firstFrameShown) = AsyncStream<Void>.makeStream()
        let embedded: Task<SkiffServerInstance, any Error>?
        let endpoint: ServerEndpoint
        if let server = options.server {
            embedded = nil
            endpoint = ServerEndpoint(url: try ServerAddress(parsing: server).url)
        } else {
            let configuration = SkiffServerConfiguration(
                host: "127.0.0.1", port: 0,
                database: .sqlite(path: paths.serverDatabase.path), smsOutboxPath: paths.smsOutbox.path,
                dataDirectory: paths.builtInServerData.path, seedDemoDataIfEmpty: true, logger: Logger(label: "skiff.server")
            )
            let starting = Task {
                for await _ in firstFrame { break }
                try Task.checkCancellation()
                do {
                    let instance = try await SkiffServerInstance.start(configuration)
                    logger.info("The built-in server is listening", metadata: ["url": "\(instance.baseURL.redactedForLog)"])
                    return instance
                } catch {
                    logger.error("The built-in server did not start", metadata: ["error": "\(error)"])
                    throw EmbeddedServerError(description: "\(error); see \(paths.logFile.path)")
                }
            }
            embedded = starting
            endpoint = ServerEndpoint { try await starting.value.baseURL }
        }
        logger.info("Starting", metadata: [
            "server": "\(endpoint.description)", "embedded": "\(embedded != nil)",
        ])
        let reportsMouse = MouseSetting.reportsMouse(noMouseFlag: options.noMouse, environment: environment)
        let status: Int32
        do {
            status = try await MainActor.run {
                try SkiffApp(
                    terminal: CursesTerminal(environment: environment, reportsMouse: reportsMouse),
                    configuration: SkiffAppConfiguration(
                        server: endpoint, paths: paths, isEmbeddedServer: embedded != nil, trust: trust,
                        lockAfter: options.lockAfterSeconds > 0 ? .seconds(options.lockAfterSeconds) : nil,
                        settings: options
                    ),
                    environment: environment, logger: logger
                )
            }.run(afterFirstFrame: { firstFrameShown.finish() })
        } catch {
            embedded?.cancel()  // before the first frame, the server is never started
            firstFrameShown.finish()
            await (try? embedded?.value)?.stop()
            logger.error("The terminal could not be used", metadata: ["error": "\(error)"])
            throw StartupError(description: "\(error)")
        }
        await (try? embedded?.value)?.stop()
        logger.info("Stopped", metadata: ["status": "\(status)"])
        if status != 0 { throw ExitStatus(status: status) }
    }
}

/// Why the built-in server did not start, as the app's screens say it.
/// The app ended with a status other than 0 (a signal's 128 + n).
struct ExitStatus: Error {
    let status: Int32
}

struct EmbeddedServerError: Error, CustomStringConvertible {
    let description: String
}

/// A failure to start that is no usage mistake: said plainly, without the usage line.
struct StartupError: Error, CustomStringConvertible {
    let description: String
}
