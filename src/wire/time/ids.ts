// An id of the time tracker (a project's, a customer's) as the client and the sandbox both hold it: the
// tracker's ids may pass 2^53, where a double would round them to another id.

/** A number when a double holds it exactly, else a bigint. */
export type Id = number | bigint;
