/**
 * The W3C Nu HTML checker (vnu.jar from the pinned npm package, run by Java) over pages' HTML:
 * gives every error it reports, each as "page: line N: message". Java is Debian's
 * (`apt-get install -y default-jre-headless`).
 */
// The package's main module is the path of its jar.
import vnuJar from "vnu-jar";

interface NuMessage {
  type: string;
  subType?: string;
  url: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

/** Checks each page (name and HTML) and returns the errors, none when every page is valid. */
export async function nuErrors(pages: { name: string; html: string }[]): Promise<string[]> {
  const folder = await Deno.makeTempDir({ prefix: "careeredge-nu-" });
  try {
    const files = await Promise.all(pages.map(async (page, index) => {
      const file = `${folder}/${index}.html`;
      await Deno.writeTextFile(file, page.html);
      return file;
    }));
    const output = await new Deno.Command("java", {
      args: ["-jar", String(vnuJar), "--errors-only", "--format", "json", "--stdout", ...files],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    if (!text.trim()) {
      throw new Error(`Nu checker gave no report: ${new TextDecoder().decode(output.stderr)}`);
    }
    const { messages } = JSON.parse(text) as { messages: NuMessage[] };
    return messages.filter((message) => message.type === "error" || message.subType === "fatal")
      .map((message) => {
        const index = Number(message.url.match(/(\d+)\.html$/)?.[1]);
        return `${
          pages[index]?.name ?? message.url
        }: line ${message.lastLine}: ${message.message}` +
          (message.extract ? ` (${message.extract.trim().slice(0, 120)})` : "");
      });
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}
