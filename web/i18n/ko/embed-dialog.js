// i18n/ko/embed-dialog.js — the Korean labels of the embed dialog (core/embed-dialog.js), added to the
// Korean table when that module loads (../../i18n.js, addKoreanStrings); English: ../en.js.

export default {
    embedTitle: '이 그림 퍼가기',
    embedClose: '닫기',
    embedIntro: '아래 코드는 지금 이 그림의 상태(설정값과 언어) 그대로 글 안에 다시 만듭니다. 블로그가 허용하는 방식을 고르세요.',
    embedScript: '스크립트를 허용하는 페이지',
    embedScriptHelp: '직접 운영하는 사이트, Hugo, Jekyll, Astro, Next.js, unfiltered_html 권한이 있는 WordPress 작성자: 스타일시트, 스크립트, 요소를 붙여 넣으세요. 안에 든 그림은 JavaScript가 없는 독자(RSS, 이메일)에게 보입니다.',
    embedElement: '스타일시트, 스크립트, 요소',
    embedHugo: 'Hugo 숏코드 (패키지의 integrations/hugo)',
    embedJekyll: 'Jekyll 인클루드 (패키지의 integrations/jekyll)',
    embedIframe: 'iframe만 허용하는 페이지',
    embedIframeHelp: '샌드박스 iframe 안의 그림입니다. 뒤의 스크립트가 프레임 높이를 그림에 맞추고, 스크립트가 지워지는 곳에서는 적어 둔 높이를 유지합니다.',
    embedIframeCode: 'iframe',
    embedPicture: '아무것도 실행하지 않는 플랫폼',
    embedPictureHelp: 'Substack, Medium, 벨로그(Velog), 네이버 블로그, 이메일 뉴스레터, RSS: 이 상태의 살아 있는 그림으로 연결되는 사진입니다. 사진을 내려받아 글과 함께 올리세요. 코드는 사진을 파일 이름으로 가리킵니다. 편집기가 올린 사진에 다른 주소를 주면 아래에 그 주소를 넣으세요. 코드가 따라 바뀝니다.',
    embedDownload: '사진 내려받기',
    embedPictureAddress: '올린 사진의 주소(선택)',
    embedMarkdown: 'Markdown',
    embedHtml: 'HTML',
    embedCopy: '복사',
    embedCopied: '복사했습니다.',
    embedCopyFailed: '여기서는 클립보드를 쓸 수 없습니다. 선택된 텍스트를 Ctrl+C 또는 ⌘C로 복사하세요.',
    embedBusy: '사진을 그리는 중…',
    embedSaved: '사진을 저장했습니다.',
};
