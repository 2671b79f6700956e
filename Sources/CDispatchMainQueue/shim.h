// The two functions of libdispatch that let a program's own loop serve the main queue on the main thread
// instead of `dispatch_main()`. swift-corelibs-libdispatch exports them for CoreFoundation's run loop (its
// private/private.h); on Linux the handle is an eventfd (non-blocking) that libdispatch signals whenever the
// main queue has work. Declared here because the toolchain does not ship that header.
#ifndef SKIFF_CDISPATCHMAINQUEUE_SHIM_H
#define SKIFF_CDISPATCHMAINQUEUE_SHIM_H

/// The descriptor that becomes readable when the main queue has work (an eventfd on Linux).
int _dispatch_get_main_queue_handle_4CF(void);

/// Runs the work the main queue has; call on the main thread only.
void _dispatch_main_queue_callback_4CF(void *message);

#endif
