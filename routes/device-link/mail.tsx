/** The mail with a link that confirms a browser, as plain text and HTML, in the mails' frame. */
import type { Mail } from "../../server/mail.ts";
import type { AdminRecord } from "../../kv/schemas.ts";
import { DEVICE_LINK_MINUTES } from "../../kv/constants.ts";
import { Frame, html, STYLE, textFooter } from "../alerts/mail.tsx";
import { SITE_NAME } from "../pages/document.tsx";

export function deviceLinkMail(admin: Pick<AdminRecord, "email" | "username">, link: string): Mail {
  const intro = `Someone, we hope you, asked to sign in to the ${SITE_NAME} admin account ` +
    `${admin.email} (${admin.username}) from a new browser while failed sign-ins hold the ` +
    "account back.";
  const rules = `Open the link in the browser you sign in with. It works once, for ` +
    `${DEVICE_LINK_MINUTES} minutes, and you still sign in with your password.`;
  const ignore = "If it was not you, ignore this mail: someone may be guessing your password, " +
    "and nothing changes unless the link is opened.";
  return {
    to: admin.email,
    subject: `Confirm a browser for your ${SITE_NAME} admin account`,
    text: [intro, "", `Confirm this browser: ${link}`, "", rules, ignore, textFooter([])].join(
      "\n",
    ),
    html: html(
      <Frame footer={null}>
        <p>{intro}</p>
        <p>
          <a href={link} style={STYLE.button}>Confirm this browser</a>
        </p>
        <p>{rules}</p>
        <p>{ignore}</p>
      </Frame>,
    ),
  };
}
