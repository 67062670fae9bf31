import { ContactLink, LegalPage } from './legal-page.tsx';

/** SPEC §2 footer 'Privacy' (/privacy): what is stored, who sees it, how to have it deleted. */
export default function PrivacyPage() {
  return (
    <LegalPage title="Privacy">
      {(operator) => (
        <>
          <p>
            {operator.name && (
              <>
                This site is run by <strong>{operator.name}</strong>.{' '}
              </>
            )}
            Questions about your data, and requests to see or delete it, go to{' '}
            <ContactLink operator={operator} />. A person reads every message and replies.
          </p>

          <h2>What we store</h2>
          <ul>
            <li>
              <strong>Your account:</strong> the id and name your Google account gives us (or the
              name you pick for a local sign-in), your e-mail address if Google shares it, and when
              you last signed in.
            </li>
            <li>
              <strong>Your sign-ins:</strong> a cookie that keeps you signed in for a limited time
              (a few weeks), ending sooner when unused. You can end them from the menu under your
              name.
            </li>
            <li>
              <strong>Games you score</strong> in the phone apps: teams, scores, comments, photos
              you attach to a comment, and tags. Your bookmarks and the tags you follow.
            </li>
            <li>
              <strong>Team sheets:</strong> players' names, jersey numbers, notes and photos, and
              your groups (lineups).
            </li>
            <li>
              <strong>Play counts</strong> made with the Player Counter app: players' names and how
              many plays each took part in.
            </li>
            <li>
              <strong>Technical records:</strong> the server counts page views per screen and people
              watching each game, and keeps short logs (including network addresses, to stop abuse).
              There are no advertising or third-party trackers on this site.
            </li>
          </ul>

          <h2>Children's data</h2>
          <p>
            Team sheets and play counts often hold children's names and photos. Only add players you
            look after, or with their parents' agreement. A team sheet is private until you publish
            it. When you publish, you choose whether the public page shows full names or only
            initials, and whether it shows photos. Public team sheets are kept out of search
            engines.
          </p>

          <h2>Photos</h2>
          <p>
            A player's photo is shown to you, and to visitors of a published team sheet only while
            it is published and set to show photos. Removing a photo or a player deletes the photo
            from the site.
          </p>

          <h2>Who sees what</h2>
          <ul>
            <li>Scoreboards, their comments and tags are public: anyone can watch a game.</li>
            <li>
              Team sheets are seen only by you until you publish them; a published sheet is seen by
              anyone who has its link or QR code, until you unpublish it.
            </li>
            <li>
              Play counts are seen only by you, unless you share a link to one; you can revoke that
              link at any time.
            </li>
            <li>Messages you send a scorekeeper go to that scorekeeper only.</li>
            <li>We do not sell or give your data to anyone.</li>
          </ul>

          <h2>How to delete your data</h2>
          <p>
            You can delete players, unpublish team sheets and archive play counts yourself at any
            time. To have your whole account and everything in it deleted, write to{' '}
            <ContactLink operator={operator} /> from the address you sign in with; we delete it and
            confirm by e-mail.
          </p>
        </>
      )}
    </LegalPage>
  );
}
