// The instructor's browser keeps the class (pages/class_parts/keeper.py mounts this once on the
// instructor's view). It
// - leaves the code and key in localStorage: a reload of /class?code=CODE opens the
//   instructor's view again (student.js hands the key back), and the pages with a player
//   publish their view (pages/player/player_moves.js reads the same entry);
// - takes the key out of the address bar at once when a link carried it (?key=...), replacing
//   that history entry, so neither the projector nor the Back button shows it;
// - copies the instructor link (the key after '#', which no server ever receives) for a second
//   device, without drawing it.

function copyByCommand(text) {
  // for a page served over plain http on a network address, where navigator.clipboard is
  // missing: a selected, invisible text area and the copy command (needs the click)
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.setAttribute("aria-hidden", "true");
  area.style.cssText = "position:fixed;top:0;left:0;width:1px;height:1px;opacity:0;";
  document.body.append(area);
  area.select();
  let done = false;
  try { done = document.execCommand("copy"); } catch (e) { done = false; }
  area.remove();
  return done;
}

export default function (component) {
  const {code, key, storage, origin, strip} = component.data;
  const root = component.parentElement;
  try { localStorage.setItem(storage, JSON.stringify({code, key})); } catch (e) { /* private */ }
  if (strip) {
    const url = new URL(window.location.href);
    if (url.searchParams.has("key")) {
      url.searchParams.delete("key");
      window.history.replaceState(window.history.state, "", url.toString());
    }
    component.setTriggerValue("stripped", true);
  }
  root.querySelectorAll(".lab-keeper").forEach((old) => old.remove());
  const box = document.createElement("div");
  box.className = "lab-keeper";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "lab-copy";
  button.textContent = "Copy the instructor link";
  const said = document.createElement("p");
  said.className = "lab-copy-said";
  said.setAttribute("role", "status");
  said.setAttribute("aria-live", "polite");
  said.textContent = "It runs this class from your tablet or laptop: paste it there, not here.";
  button.addEventListener("click", async () => {
    const link = `${origin}/class?code=${encodeURIComponent(code)}#key=${encodeURIComponent(key)}`;
    let copied = false;
    if (navigator.clipboard && window.isSecureContext) {
      try { await navigator.clipboard.writeText(link); copied = true; } catch (e) { copied = false; }
    }
    if (!copied) copied = copyByCommand(link);
    said.textContent = copied
      ? "Copied. Paste it on your tablet or laptop (not on the projector): it runs this class."
      : "This browser did not let the page copy the link: try once more, or from another "
        + "browser on this machine.";
  });
  box.append(button, said);
  root.append(box);
}
