/** The password reset mail, as plain text and HTML, in the same frame as every other mail. */
import type { Mail } from "../../server/mail.ts";
import type { AdminRecord } from "../../kv/schemas.ts";
import { RESET_LINK_MINUTES } from "../../kv/constants.ts";
import { Frame, html, STYLE, textFooter } from "../alerts/mail.tsx";
import { SITE_NAME } from "../pages/document.tsx";

export function resetMail(admin: Pick<AdminRecord, "email" | "username">, link: string): Mail {
  const intro = `Someone, we hope you, asked to reset the password of the ${SITE_NAME} admin ` +
    `account ${admin.email} (${admin.username}).`;
  const rules = `The link works once, for ${RESET_LINK_MINUTES} minutes. Setting a new password ` +
    "signs the account out everywhere.";
  const ignore = "If it was not you, ignore this mail: your password stays as it is.";
  return {
    to: admin.email,
    subject: `Reset your ${SITE_NAME} admin password`,
    text: [intro, "", `Set a new password: ${link}`, "", rules, ignore, textFooter([])].join("\n"),
    html: html(
      <Frame footer={null}>
        <p>{intro}</p>
        <p>
          <a href={link} style={STYLE.button}>Set a new password</a>
        </p>
        <p>{rules}</p>
        <p>{ignore}</p>
      </Frame>,
    ),
  };
}
