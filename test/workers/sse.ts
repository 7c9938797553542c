// Reads a text/event-stream response body into its JSON-RPC messages.
export async function readSse(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  const messages: Record<string, unknown>[] = [];
  for (const block of text.split("\n\n")) {
    const data = block
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (data !== "") messages.push(JSON.parse(data) as Record<string, unknown>);
  }
  return messages;
}
