// Reads SSE events from a streaming response one at a time (id + parsed data), for session tests.
export interface SseEvent {
  id: string | undefined;
  data: Record<string, unknown> | undefined;
}

export function sseReader(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    /** The next event, or undefined at the end of the stream. */
    async next(): Promise<SseEvent | undefined> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split("\n");
          const id = lines.find((l) => l.startsWith("id: "))?.slice(4);
          const data = lines.find((l) => l.startsWith("data: "))?.slice(6) ?? "";
          if (id === undefined && data === "") continue; // comments
          return { id, data: data === "" ? undefined : (JSON.parse(data) as Record<string, unknown>) };
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    /** Every remaining event until the stream ends. */
    async rest(): Promise<SseEvent[]> {
      const events: SseEvent[] = [];
      for (let event = await this.next(); event; event = await this.next()) events.push(event);
      return events;
    },
    cancel: () => reader.cancel(),
  };
}
